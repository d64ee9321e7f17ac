// Frozen: recurring service orders and per-staff read marks, as of 2026-11-25. Never import application code here.
// - A monthly package bought by card runs as a Stripe subscription: the service order names it, shows when it ends
//   (cancelled at the period's end), and gets one period per paid invoice, each with its own delivery (the report).
// - Staff read marks are per staff member (service_order_message_reads); read_at stays "first seen by the other
//   side" (what the buyer is shown). Existing staff-side reads are copied to every current staff member so nothing
//   already read turns unread.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('service_orders')
    .addColumn('recurring', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('ends_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('service_orders_stripe_subscription_idx')
    .on('service_orders')
    .column('stripe_subscription_id')
    .where(sql.ref('stripe_subscription_id'), 'is not', null)
    .execute()

  await db.schema
    .createTable('service_order_periods')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('service_order_id', 'uuid', (c) => c.notNull().references('service_orders.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('stripe_invoice_id', 'text', (c) => c.unique())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('delivery_id', 'uuid', (c) => c.references('service_order_deliveries.id').onDelete('set null'))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('service_order_periods_number_key', ['service_order_id', 'number'])
    .execute()

  await db.schema
    .createTable('service_order_message_reads')
    .addColumn('message_id', 'uuid', (c) => c.notNull().references('service_order_messages.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('service_order_message_reads_pkey', ['message_id', 'user_id'])
    .execute()
  await sql`insert into service_order_message_reads (message_id, user_id, read_at)
    select m.id, u.id, m.read_at from service_order_messages m cross join users u
    where not m.from_staff and m.read_at is not null and u.role <> 'customer'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_order_message_reads').execute()
  await db.schema.dropTable('service_order_periods').execute()
  await db.schema.dropIndex('service_orders_stripe_subscription_idx').execute()
  await db.schema
    .alterTable('service_orders')
    .dropColumn('recurring')
    .dropColumn('stripe_subscription_id')
    .dropColumn('ends_at')
    .execute()
}
