// Frozen: a payout can be 'withdrawn' (decision 0127, 2026-12-25): before any transfer was made for it, a dispute or a
// refund took back everything it claimed, so it is never sent. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'unconfirmed', 'paid', 'failed', 'reversed', 'withdrawn'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // Before this, such a payout stayed claimed and was sent with the amount it was opened with.
  await sql`update creator_payouts set status = 'failed' where status = 'withdrawn'`.execute(db)
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'unconfirmed', 'paid', 'failed', 'reversed'))`.execute(db)
}
