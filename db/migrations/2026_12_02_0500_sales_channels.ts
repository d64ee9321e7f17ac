// Frozen: catalogue vs search as a sale's way in (issue 35, decision 0056). A course's cart line and order line
// remember how the buyer reached the course page: 'search' (a catalogue search result), 'catalogue' (browsing the
// catalogue or a category), null (anything else: direct). The daily sales rollup counts both.
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('cart_items')
    .addColumn('channel', 'text', (c) => c.check(sql`channel in ('search', 'catalogue')`))
    .execute()
  await db.schema
    .alterTable('order_items')
    .addColumn('channel', 'text', (c) => c.check(sql`channel in ('search', 'catalogue')`))
    .execute()
  await db.schema
    .alterTable('analytics_sales_daily')
    .addColumn('units_search', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('units_catalogue', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analytics_sales_daily').dropColumn('units_catalogue').dropColumn('units_search').execute()
  await db.schema.alterTable('order_items').dropColumn('channel').execute()
  await db.schema.alterTable('cart_items').dropColumn('channel').execute()
}
