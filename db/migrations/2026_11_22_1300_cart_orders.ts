// Frozen: cart, orders, payments and what a paid order grants, as of 2026-11-22. Never import application code.
import { type Kysely, sql } from 'kysely'

const ITEM_KINDS = sql`('course','service_package','plan')`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cart_items')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ${ITEM_KINDS}`))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('cascade'))
    .addColumn('service_package_id', 'uuid', (c) => c.references('service_packages.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (c) => c.references('plans.id').onDelete('cascade'))
    .addColumn('billing_cycle', 'text', (c) => c.check(sql`billing_cycle in ('monthly','annual')`))
    // One key per catalogue item: the unique index below makes a duplicate impossible, even under races.
    .addColumn('item_key', 'text', (c) =>
      c
        .notNull()
        .generatedAlwaysAs(sql`kind || ':' || coalesce(course_id, service_package_id::text, plan_id)`)
        .stored(),
    )
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'cart_items_reference_check',
      sql`(kind = 'course' and course_id is not null and service_package_id is null and plan_id is null)
        or (kind = 'service_package' and service_package_id is not null and course_id is null and plan_id is null)
        or (kind = 'plan' and plan_id is not null and billing_cycle is not null and course_id is null
            and service_package_id is null)`,
    )
    .addUniqueConstraint('cart_items_user_item_key', ['user_id', 'item_key'])
    .execute()

  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('card','paypal','bank_transfer')`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending','awaiting_transfer','paid','failed','cancelled')`),
    )
    .addColumn('subtotal_minor', 'integer', (c) => c.notNull().check(sql`subtotal_minor >= 0`))
    .addColumn('tax_minor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_minor', 'integer', (c) => c.notNull().check(sql`total_minor >= 0`))
    .addColumn('stripe_session_id', 'text', (c) => c.unique())
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('status_changed_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('orders_user_created_idx').on('orders').columns(['user_id', 'created_at']).execute()
  await db.schema.createIndex('orders_status_created_idx').on('orders').columns(['status', 'created_at']).execute()

  await db.schema
    .createTable('order_items')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ${ITEM_KINDS}`))
    .addColumn('course_id', 'text', (c) => c.references('courses.id').onDelete('set null'))
    .addColumn('service_package_id', 'uuid', (c) => c.references('service_packages.id').onDelete('set null'))
    .addColumn('plan_id', 'text', (c) => c.references('plans.id').onDelete('set null'))
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('billing_cycle', 'text')
    .addColumn('recurring_interval', 'text', (c) => c.check(sql`recurring_interval in ('month','year')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('unit_price_minor', 'integer', (c) => c.notNull().check(sql`unit_price_minor >= 0`))
    .execute()
  await db.schema.createIndex('order_items_order_idx').on('order_items').column('order_id').execute()

  await db.schema
    .createTable('processed_stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('enrolments')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('order_id', 'uuid', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('enrolled_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('enrolments_pkey', ['user_id', 'course_id'])
    .execute()

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    .addColumn('billing_cycle', 'text', (c) => c.notNull().check(sql`billing_cycle in ('monthly','annual')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('trialing','active','past_due','cancelled')`))
    .addColumn('order_id', 'uuid', (c) => c.references('orders.id').onDelete('set null'))
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('renews_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('subscriptions_order_plan_key', ['order_id', 'plan_id'])
    .execute()
  await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').columns(['user_id', 'status']).execute()
  await db.schema.createIndex('subscriptions_stripe_idx').on('subscriptions').column('stripe_subscription_id').execute()

  await db.schema
    .createTable('service_orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('service_package_id', 'uuid', (c) => c.references('service_packages.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('new').check(sql`status in ('new','in_progress','completed','cancelled')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('service_orders_order_package_key', ['order_id', 'service_package_id'])
    .execute()
  await db.schema.createIndex('service_orders_user_idx').on('service_orders').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'service_orders',
    'subscriptions',
    'enrolments',
    'processed_stripe_events',
    'order_items',
    'orders',
    'cart_items',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
