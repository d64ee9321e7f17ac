// Frozen: the recurring lines of a checkout that started a free trial (Stripe charged them nothing: a refund of such a
// line gives back nothing and the order's invoice shows it at 0), and refunds of Stripe's paid subscription invoices
// (renewals). invoice.paid keeps the payment that paid the
// invoice (its payment intent, or its charge when Stripe made no intent), so a later charge.refunded about it finds the
// invoice; each refund of it is recorded once (Stripe's refund id), with the part of it that was tax allocated once
// (largest remainder) and stored; its credit note references the renewal's numbered invoice. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table order_items add column free_trial boolean not null default false`.execute(db)
  await sql`alter table subscription_invoices add column stripe_payment_intent_id text`.execute(db)
  await sql`alter table subscription_invoices add column stripe_charge_id text`.execute(db)
  await sql`create index subscription_invoices_payment_intent_idx on subscription_invoices (stripe_payment_intent_id) where stripe_payment_intent_id is not null`.execute(
    db,
  )
  await sql`create index subscription_invoices_charge_idx on subscription_invoices (stripe_charge_id) where stripe_charge_id is not null`.execute(
    db,
  )
  await db.schema
    .createTable('subscription_invoice_refunds')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('subscription_invoice_id', 'uuid', (c) =>
      c.notNull().references('subscription_invoices.id').onDelete('cascade'),
    )
    .addColumn('stripe_refund_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount_minor', 'integer', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('tax_minor', 'integer', (c) => c.notNull().check(sql`tax_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('refunded_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('subscription_invoice_refunds_tax_check', sql`tax_minor <= amount_minor`)
    .execute()
  await sql`create index subscription_invoice_refunds_invoice_idx on subscription_invoice_refunds (subscription_invoice_id)`.execute(
    db,
  )
  await sql`create index subscription_invoice_refunds_at_idx on subscription_invoice_refunds (refunded_at)`.execute(db)
  // A credit note gives back an order's refund or a subscription invoice's, exactly one of them.
  await sql`alter table credit_notes alter column refund_id drop not null`.execute(db)
  await sql`alter table credit_notes add column subscription_refund_id uuid unique references subscription_invoice_refunds(id) on delete cascade`.execute(
    db,
  )
  await sql`alter table credit_notes add constraint credit_notes_one_refund check ((refund_id is null) <> (subscription_refund_id is null))`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from credit_notes where subscription_refund_id is not null`.execute(db)
  await sql`alter table credit_notes drop constraint credit_notes_one_refund`.execute(db)
  await sql`alter table credit_notes drop column subscription_refund_id`.execute(db)
  await sql`alter table credit_notes alter column refund_id set not null`.execute(db)
  await db.schema.dropTable('subscription_invoice_refunds').execute()
  await sql`alter table subscription_invoices drop column stripe_charge_id`.execute(db)
  await sql`alter table subscription_invoices drop column stripe_payment_intent_id`.execute(db)
  await sql`alter table order_items drop column free_trial`.execute(db)
}
