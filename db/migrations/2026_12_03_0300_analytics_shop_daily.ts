// Frozen: the shop-wide daily totals of the analytics rollup (issue 35). The staff page summed every course's rows
// of the range (a year of a large shop: hundreds of thousands of sales rows and millions of course-day view
// counters, seconds per page); the job now also writes one row per day and currency of sales and one row per day of
// course-page views, which the shop-wide page reads for rolled days. Filled here from what is already rolled.
// Never import application code here.
import { type Kysely, sql } from 'kysely'

const SUMS = [
  'gross_minor',
  'discount_minor',
  'refund_minor',
  'platform_fee_minor',
  'net_minor',
  'units',
  'units_direct',
  'units_coupon',
  'units_bundle',
  'units_gift',
  'units_search',
  'units_catalogue',
  'refunds',
]

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable('analytics_shop_sales_daily')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
  for (const column of SUMS) {
    table = table.addColumn(column, column.endsWith('_minor') ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
  }
  await table.addPrimaryKeyConstraint('analytics_shop_sales_daily_pk', ['day', 'currency']).execute()
  await db.schema
    .createTable('analytics_shop_views_daily')
    .addColumn('day', 'date', (c) => c.primaryKey())
    .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('views_search', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('views_catalogue', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('cart_adds', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  const columns = sql.raw(SUMS.join(', '))
  const sums = sql.raw(SUMS.map((column) => `sum(${column})`).join(', '))
  await sql`insert into analytics_shop_sales_daily (day, currency, ${columns})
    select day, currency, ${sums} from analytics_sales_daily group by day, currency`.execute(db)
  await sql`insert into analytics_shop_views_daily (day, views, views_search, views_catalogue, cart_adds)
    select day, sum(views), sum(views_search), sum(views_catalogue), sum(cart_adds) from course_event_counts
    where day <= (select value::date from analytics_rollup_state where name = 'sales_day')
    group by day`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_shop_views_daily').execute()
  await db.schema.dropTable('analytics_shop_sales_daily').execute()
}
