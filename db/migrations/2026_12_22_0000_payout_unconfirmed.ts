// Frozen: a payout whose try got no answer from Stripe is 'unconfirmed' (decision 0108, 2026-12-22). Stripe may have
// made its transfer, so the payout keeps its amount claimed and is looked up by every later run, never given up as
// 'failed' (which only a try Stripe refused may be). Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'unconfirmed', 'paid', 'failed', 'reversed'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // Before this, a 'sending' row (claimed long ago) was the one kind still claimed, looked up and retried without limit.
  await sql`update creator_payouts set status = 'sending' where status = 'unconfirmed'`.execute(db)
  await sql`alter table creator_payouts drop constraint creator_payouts_status_check`.execute(db)
  await sql`alter table creator_payouts add constraint creator_payouts_status_check
    check (status in ('pending', 'sending', 'paid', 'failed', 'reversed'))`.execute(db)
}
