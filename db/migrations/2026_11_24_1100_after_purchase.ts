// Frozen: what happens after a purchase, as of 2026-11-24. Never import application code here.
// Orders gain the statuses expired / partially refunded / refunded / disputed, the buyer's invoice details and at
// most one pending order per user and currency; a free cart's order has the method 'free' (the cart's order, whatever the rail). Refunds name the lines they
// give back; invoices and credit notes carry gapless yearly numbers from a counter row locked by the paying
// transaction; buyers may ask for a refund of a line once.
import { type Kysely, sql } from 'kysely'

const STATUSES = sql`('pending','awaiting_transfer','paid','failed','cancelled','expired','partially_refunded','refunded','disputed')`

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop constraint if exists orders_status_check`.execute(db)
  await sql`alter table orders add constraint orders_status_check check (status in ${STATUSES})`.execute(db)
  // A cart whose total is 0 completes without a payment rail.
  await sql`alter table orders drop constraint if exists orders_method_check`.execute(db)
  await sql`alter table orders add constraint orders_method_check
    check (method in ('card','paypal','bank_transfer','free'))`.execute(db)
  await db.schema
    .alterTable('orders')
    .addColumn('billing_name', 'text')
    .addColumn('billing_email', 'text')
    .addColumn('billing_company', 'text')
    .addColumn('billing_address', 'text')
    .addColumn('billing_vat_number', 'text')
    .addColumn('stripe_payment_intent_id', 'text')
    .addColumn('captured_minor', 'integer', (c) => c.notNull().defaultTo(0).check(sql`captured_minor >= 0`))
    .addColumn('refunded_minor', 'integer', (c) => c.notNull().defaultTo(0).check(sql`refunded_minor >= 0`))
    .addColumn('expired_at', 'timestamptz')
    // A cart's order, or an order made for the buyer (a membership renewal): only cart orders are one per cart.
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('cart').check(sql`source in ('cart','renewal')`))
    .execute()
  await sql`update orders set captured_minor = total_minor where status = 'paid'`.execute(db)
  await sql`alter table orders add constraint orders_refund_within_captured check (refunded_minor <= captured_minor)`.execute(
    db,
  )
  // Older duplicates (the PayPal button made one per click) stop being pending before the rule applies.
  await sql`update orders o set status = 'cancelled', cancelled_at = now()
    where status = 'pending' and source = 'cart' and exists (select 1 from orders n where n.user_id = o.user_id
      and n.currency = o.currency and n.status = 'pending' and n.source = 'cart' and n.created_at > o.created_at)`.execute(
    db,
  )
  await sql`create unique index orders_one_pending_per_cart on orders (user_id, currency)
    where status = 'pending' and source = 'cart'`.execute(db)
  await db.schema.createIndex('orders_payment_intent_idx').on('orders').column('stripe_payment_intent_id').execute()

  await db.schema
    .alterTable('order_items')
    .addColumn('refund_id', 'uuid')
    .addColumn('refunded_at', 'timestamptz')
    .execute()

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('amount_minor', 'integer', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('stripe','manual')`))
    /** Stripe's refund id (re_…) or the manual reference staff typed (a PayPal transaction id, a bank reference). */
    .addColumn('reference', 'text')
    .addColumn('stripe_refund_id', 'text', (c) => c.unique())
    .addColumn('reason', 'text')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('refunds_order_idx').on('refunds').column('order_id').execute()
  await sql`alter table order_items add constraint order_items_refund_fk foreign key (refund_id) references refunds(id) on delete set null`.execute(
    db,
  )

  await db.schema
    .createTable('document_counters')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('INV','CN')`))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_counters_pkey', ['kind', 'year'])
    .execute()

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('order_id', 'uuid', (c) => c.unique().references('orders.id').onDelete('cascade'))
    /** A paid subscription invoice (Stripe's in_… id), numbered in the same series. */
    .addColumn('stripe_invoice_id', 'text', (c) => c.unique())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('seller', 'jsonb', (c) => c.notNull())
    .addColumn('buyer', 'jsonb', (c) => c.notNull())
    .addColumn('lines', 'jsonb', (c) => c.notNull())
    .addColumn('tax_lines', 'jsonb', (c) => c.notNull())
    .addColumn('subtotal_minor', 'integer', (c) => c.notNull())
    .addColumn('tax_minor', 'integer', (c) => c.notNull())
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('invoices_user_idx').on('invoices').column('user_id').execute()

  await db.schema
    .createTable('credit_notes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('invoice_id', 'uuid', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    .addColumn('refund_id', 'uuid', (c) => c.notNull().unique().references('refunds.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('lines', 'jsonb', (c) => c.notNull())
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('credit_notes_invoice_idx').on('credit_notes').column('invoice_id').execute()

  await db.schema
    .createTable('refund_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_item_id', 'uuid', (c) => c.notNull().unique().references('order_items.id').onDelete('cascade'))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('open').check(sql`status in ('open','approved','declined')`),
    )
    .addColumn('decision_reason', 'text')
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('refund_requests_status_idx').on('refund_requests').column('status').execute()

  // Stripe disputes as last heard of: a 'closed' event that overtakes its 'created' one is not undone by it.
  await db.schema
    .createTable('order_disputes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('closed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['order_disputes', 'refund_requests', 'credit_notes', 'invoices', 'document_counters']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
  await db.schema.alterTable('order_items').dropColumn('refund_id').dropColumn('refunded_at').execute()
  await db.schema.dropTable('refunds').ifExists().execute()
  await sql`drop index if exists orders_one_pending_per_cart`.execute(db)
  await sql`drop index if exists orders_payment_intent_idx`.execute(db)
  await sql`alter table orders drop constraint if exists orders_refund_within_captured`.execute(db)
  for (const column of [
    'billing_name',
    'billing_email',
    'billing_company',
    'billing_address',
    'billing_vat_number',
    'stripe_payment_intent_id',
    'captured_minor',
    'refunded_minor',
    'expired_at',
    'source',
  ]) {
    await db.schema.alterTable('orders').dropColumn(column).execute()
  }
  await sql`alter table orders drop constraint if exists orders_status_check`.execute(db)
  await sql`alter table orders add constraint orders_status_check
    check (status in ('pending','awaiting_transfer','paid','failed','cancelled'))`.execute(db)
  await sql`alter table orders drop constraint if exists orders_method_check`.execute(db)
  await sql`alter table orders add constraint orders_method_check
    check (method in ('card','paypal','bank_transfer'))`.execute(db)
}
