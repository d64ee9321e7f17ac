// Frozen: coupons (issue 32). A coupon's uses are its redemption rows whose order is still live (pending, awaiting
// a transfer, or paid): an order that expires, fails or is cancelled gives its use back without a counter to keep.
// Order lines store their allocated share of the order's discount. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('coupons')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // Stored upper-case: codes are case-insensitive and unique.
    .addColumn('code', 'text', (c) => c.notNull().unique().check(sql`code ~ '^[A-Z0-9_-]{3,40}$'`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('percent','fixed')`))
    .addColumn('percent_off', 'integer', (c) => c.check(sql`percent_off between 1 and 100`))
    // Fixed amounts per currency: {"USD": 1000, "GBP": 800}; minimum cart amounts likewise.
    .addColumn('amounts_off', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('min_amounts', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('applies_to', 'text', (c) =>
      c.notNull().check(sql`applies_to in ('everything','courses','creator','service_packages')`),
    )
    .addColumn('course_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // A creator's coupon: made in the studio, for that creator's own courses only.
    .addColumn('creator_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('max_uses', 'integer', (c) => c.check(sql`max_uses > 0`))
    .addColumn('max_uses_per_customer', 'integer', (c) => c.check(sql`max_uses_per_customer > 0`))
    .addColumn('first_purchase_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_by', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('coupons_window', sql`ends_at is null or starts_at is null or ends_at > starts_at`)
    .addCheckConstraint(
      'coupons_amount',
      sql`(kind = 'percent' and percent_off is not null) or (kind = 'fixed' and percent_off is null)`,
    )
    .execute()

  // The code applied to a user's cart: one per cart (no stacking).
  await db.schema
    .createTable('coupon_applications')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('coupon_id', 'uuid', (c) => c.notNull().references('coupons.id').onDelete('cascade'))
    .addColumn('applied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  // One use per order, reserved when its checkout starts (under the coupon's row lock).
  await db.schema
    .createTable('coupon_redemptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('coupon_id', 'uuid', (c) => c.notNull().references('coupons.id'))
    .addColumn('order_id', 'uuid', (c) => c.notNull().unique().references('orders.id'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    .addColumn('discount_minor', 'integer', (c) => c.notNull().check(sql`discount_minor >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create index coupon_redemptions_coupon_idx on coupon_redemptions (coupon_id)`.execute(db)
  await sql`create index coupon_redemptions_email_idx on coupon_redemptions (coupon_id, email_normalized)`.execute(db)

  await db.schema
    .alterTable('orders')
    .addColumn('discount_minor', 'integer', (c) => c.notNull().defaultTo(0).check(sql`discount_minor >= 0`))
    .addColumn('coupon_code', 'text')
    .execute()
  await db.schema
    .alterTable('order_items')
    .addColumn('discount_minor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`alter table order_items add constraint order_items_discount_range
    check (discount_minor >= 0 and discount_minor <= unit_price_minor)`.execute(db)
}
