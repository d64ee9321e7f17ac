// Frozen (decision 0127, 2026-12-25): a payout can be 'withdrawn' (before any transfer was made for it, a dispute or a
// refund took back everything it claimed, so it is never sent), and it keeps the idempotency key its transfer was last
// asked with: a try after a refusal takes a new one (Stripe keeps a refused request's answer under its key), a try
// after no answer the same one. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'unconfirmed', 'paid', 'failed', 'reversed', 'withdrawn'))`.execute(db)
  // Null on the rows made before: their tries used the key without a suffix.
  await db.schema.alterTable('creator_payouts').addColumn('transfer_key', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('creator_payouts').dropColumn('transfer_key').execute()
  // Before this, such a payout stayed claimed and was sent with the amount it was opened with.
  await sql`update creator_payouts set status = 'failed' where status = 'withdrawn'`.execute(db)
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'unconfirmed', 'paid', 'failed', 'reversed'))`.execute(db)
}
