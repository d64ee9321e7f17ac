// Frozen: a subscription ended by a refund says so (issue 38). Never import application code.
// end_reason gains 'refund' beside 'cancellation' and 'lapse', so a former member reads "Refunded on DATE". Plans
// refunded before this migration were recorded as cancellations; their Premium grant's revocation reason tells.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table subscriptions drop constraint if exists subscriptions_end_reason_check`.execute(db)
  await sql`alter table subscriptions add constraint subscriptions_end_reason_check
    check (end_reason in ('cancellation', 'lapse', 'refund'))`.execute(db)
  await sql`update subscriptions s set end_reason = 'refund'
    where s.end_reason = 'cancellation'
      and exists (select 1 from access_grants g where g.subscription_id = s.id and g.revoked_reason = 'refund')`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update subscriptions set end_reason = 'cancellation' where end_reason = 'refund'`.execute(db)
  await sql`alter table subscriptions drop constraint if exists subscriptions_end_reason_check`.execute(db)
  await sql`alter table subscriptions add constraint subscriptions_end_reason_check
    check (end_reason in ('cancellation', 'lapse'))`.execute(db)
}
