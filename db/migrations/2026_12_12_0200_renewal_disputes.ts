// Frozen: disputes of a renewal's payment (a Stripe subscription invoice after the first). A dispute is remembered
// against the order it disputes or against the renewal (exactly one of them), and the money a lost one took back is
// recorded among the renewal's refunds under the dispute's id (a refund row has exactly one of a Stripe refund id and a
// dispute id). Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table order_disputes alter column order_id drop not null`.execute(db)
  await sql`alter table order_disputes add column subscription_invoice_id uuid references subscription_invoices(id) on delete cascade`.execute(
    db,
  )
  await sql`alter table order_disputes add constraint order_disputes_one_subject check ((order_id is null) <> (subscription_invoice_id is null))`.execute(
    db,
  )
  await sql`alter table subscription_invoice_refunds alter column stripe_refund_id drop not null`.execute(db)
  await sql`alter table subscription_invoice_refunds add column dispute_id text unique`.execute(db)
  await sql`alter table subscription_invoice_refunds add constraint subscription_invoice_refunds_one_source check ((stripe_refund_id is null) <> (dispute_id is null))`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from subscription_invoice_refunds where dispute_id is not null`.execute(db)
  await sql`alter table subscription_invoice_refunds drop constraint subscription_invoice_refunds_one_source`.execute(
    db,
  )
  await sql`alter table subscription_invoice_refunds drop column dispute_id`.execute(db)
  await sql`alter table subscription_invoice_refunds alter column stripe_refund_id set not null`.execute(db)
  await sql`delete from order_disputes where order_id is null`.execute(db)
  await sql`alter table order_disputes drop constraint order_disputes_one_subject`.execute(db)
  await sql`alter table order_disputes drop column subscription_invoice_id`.execute(db)
  await sql`alter table order_disputes alter column order_id set not null`.execute(db)
}
