// Frozen: orders that started a free trial read as the money they took (decision 0089). A paid order's total becomes
// what Stripe captured (the trial's plan line took nothing; with Stripe Tax this was already so), and an order whose
// money was all refunded while its trial's plan line was never given back is Partially refunded, not Refunded (the
// plan runs on). Data only; the down migration has nothing to put back. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`update orders o set total_minor = o.captured_minor
    where o.status in ('paid', 'partially_refunded', 'refunded', 'disputed')
      and o.total_minor <> o.captured_minor
      and exists (select 1 from order_items i where i.order_id = o.id and i.free_trial)`.execute(db)
  await sql`update orders o set status = 'partially_refunded'
    where o.status = 'refunded'
      and exists (select 1 from order_items i where i.order_id = o.id and i.free_trial and i.refund_id is null)`.execute(
    db,
  )
}

export async function down(): Promise<void> {}
