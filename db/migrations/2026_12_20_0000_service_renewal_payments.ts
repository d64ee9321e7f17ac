// Frozen: a paid month of a recurring service order (monthly SEO management, a Stripe subscription with no plan) is
// recorded among the paid subscription invoices, with the payment that paid it, so a refund or a lost dispute of that
// payment finds it and gets its credit note (decision 0104, 2026-12-20). A row belongs to a membership or to a service
// order, never both. Months renewed before this were numbered as tax invoices without a row: they get one now, from
// their invoice and period (their payment is looked up at Stripe when a refund of it arrives). Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('subscription_invoices')
    .alterColumn('subscription_id', (c) => c.dropNotNull())
    .addColumn('service_order_id', 'uuid', (c) => c.references('service_orders.id').onDelete('cascade'))
    .execute()
  await sql`alter table subscription_invoices add constraint subscription_invoices_owner_check
    check (num_nonnulls(subscription_id, service_order_id) = 1)`.execute(db)
  await db.schema
    .createIndex('subscription_invoices_service_order_idx')
    .on('subscription_invoices')
    .column('service_order_id')
    .where(sql.ref('service_order_id'), 'is not', null)
    .execute()
  await sql`insert into subscription_invoices
      (service_order_id, user_id, stripe_invoice_id, amount_minor, tax_minor, currency, period_start, period_end,
       billing_reason, paid_at)
    select p.service_order_id, i.user_id, i.stripe_invoice_id, i.total_minor, i.tax_minor, i.currency, p.starts_at,
       p.ends_at, 'subscription_cycle', i.issued_at
    from invoices i
    join service_order_periods p on p.stripe_invoice_id = i.stripe_invoice_id
    where i.order_id is null
    on conflict (stripe_invoice_id) do nothing`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('subscription_invoices').where('subscription_id', 'is', null).execute()
  await sql`alter table subscription_invoices drop constraint subscription_invoices_owner_check`.execute(db)
  await db.schema
    .alterTable('subscription_invoices')
    .dropColumn('service_order_id')
    .alterColumn('subscription_id', (c) => c.setNotNull())
    .execute()
}
