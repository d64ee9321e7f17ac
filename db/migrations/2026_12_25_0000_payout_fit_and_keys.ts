// Frozen (decision 0127, 2026-12-25): a payout can be 'withdrawn' (before any transfer was made for it, a dispute or a
// refund took back everything it claimed, so it is never sent), and it keeps the idempotency key a retry must use
// again (its last try got no answer): null when the next try takes a new one (never tried, or Stripe answered the last
// try and keeps that answer under its key). Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'unconfirmed', 'paid', 'failed', 'reversed', 'withdrawn'))`.execute(db)
  await db.schema.alterTable('creator_payouts').addColumn('transfer_key', 'text').execute()
  // A payout Stripe may have made keeps the key its tries used until now (no suffix).
  await sql`update creator_payouts set transfer_key = 'payout:' || creator_id || ':' || month || ':' || currency
    where status in ('sending', 'unconfirmed')`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('creator_payouts').dropColumn('transfer_key').execute()
  // Before this, such a payout stayed claimed and was sent with the amount it was opened with.
  await sql`update creator_payouts set status = 'failed' where status = 'withdrawn'`.execute(db)
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'unconfirmed', 'paid', 'failed', 'reversed'))`.execute(db)
}
