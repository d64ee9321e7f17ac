// Frozen: bundles (issue 32) — several courses sold at one price. The cart holds a bundle as one line; an order holds
// one line per included course with its allocated share of the bundle price, grouped by bundle_id. Never import
// application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bundles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slug', 'text', (c) => c.notNull().unique().check(sql`slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`length(title) between 1 and 200`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // The creator who sells it (only their own courses); null for a bundle staff made (any course).
    .addColumn('owner_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    .addColumn('price_minor', 'integer', (c) => c.notNull().check(sql`price_minor > 0`))
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('bundles_owner_idx').on('bundles').column('owner_id').execute()

  await db.schema
    .createTable('bundle_courses')
    .addColumn('bundle_id', 'uuid', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('bundle_courses_pkey', ['bundle_id', 'course_id'])
    .execute()
  await db.schema.createIndex('bundle_courses_course_idx').on('bundle_courses').column('course_id').execute()

  // The cart: a bundle is one line. item_key is generated, so it is dropped and made again with the bundle in it.
  await db.schema
    .alterTable('cart_items')
    .addColumn('bundle_id', 'uuid', (c) => c.references('bundles.id').onDelete('cascade'))
    .execute()
  await sql`alter table cart_items drop constraint cart_items_reference_check`.execute(db)
  await sql`alter table cart_items drop constraint if exists cart_items_kind_check`.execute(db)
  await sql`alter table cart_items add constraint cart_items_kind_check
    check (kind in ('course','service_package','plan','bundle'))`.execute(db)
  await sql`alter table cart_items add constraint cart_items_reference_check check (
    (kind = 'course' and course_id is not null and service_package_id is null and plan_id is null and bundle_id is null)
    or (kind = 'service_package' and service_package_id is not null and course_id is null and plan_id is null
        and bundle_id is null)
    or (kind = 'plan' and plan_id is not null and billing_cycle is not null and course_id is null
        and service_package_id is null and bundle_id is null)
    or (kind = 'bundle' and bundle_id is not null and course_id is null and service_package_id is null
        and plan_id is null))`.execute(db)
  await sql`alter table cart_items drop column item_key`.execute(db)
  await sql`alter table cart_items add column item_key text not null generated always as
    (kind || ':' || coalesce(course_id, service_package_id::text, plan_id, bundle_id::text)) stored`.execute(db)
  await sql`alter table cart_items add constraint cart_items_user_item_key unique (user_id, item_key)`.execute(db)

  // An order's course lines bought as a bundle: the bundle they came from (its title kept as sold).
  await db.schema
    .alterTable('order_items')
    .addColumn('bundle_id', 'uuid', (c) => c.references('bundles.id').onDelete('set null'))
    .addColumn('bundle_title', 'text')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_items').dropColumn('bundle_title').dropColumn('bundle_id').execute()
  await sql`delete from cart_items where kind = 'bundle'`.execute(db)
  await sql`alter table cart_items drop column item_key`.execute(db)
  await sql`alter table cart_items drop column bundle_id`.execute(db)
  await sql`alter table cart_items drop constraint if exists cart_items_kind_check`.execute(db)
  await sql`alter table cart_items add constraint cart_items_kind_check
    check (kind in ('course','service_package','plan'))`.execute(db)
  await sql`alter table cart_items add column item_key text not null generated always as
    (kind || ':' || coalesce(course_id, service_package_id::text, plan_id)) stored`.execute(db)
  await sql`alter table cart_items add constraint cart_items_user_item_key unique (user_id, item_key)`.execute(db)
  await sql`alter table cart_items add constraint cart_items_reference_check check (
    (kind = 'course' and course_id is not null and service_package_id is null and plan_id is null)
    or (kind = 'service_package' and service_package_id is not null and course_id is null and plan_id is null)
    or (kind = 'plan' and plan_id is not null and billing_cycle is not null and course_id is null
        and service_package_id is null))`.execute(db)
  await db.schema.dropTable('bundle_courses').execute()
  await db.schema.dropTable('bundles').execute()
}
