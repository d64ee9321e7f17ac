// Frozen: analytics, ratings over time and refunds with their reasons (issue 35). Per course and UTC day: the reviews
// given that day and their stars; per course, day, currency and reason: the lines given back that day. Filled by
// the analytics job with the day's sales rollup. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_ratings_daily')
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('reviews', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stars', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_ratings_daily_pk', ['course_id', 'day'])
    .execute()
  await sql`create index analytics_ratings_daily_day_idx on analytics_ratings_daily (day)`.execute(db)

  await db.schema
    .createTable('analytics_refund_reasons_daily')
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('refunds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refund_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_refund_reasons_daily_pk', ['course_id', 'day', 'currency', 'reason'])
    .execute()
  await sql`create index analytics_refund_reasons_daily_day_idx on analytics_refund_reasons_daily (day)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_refund_reasons_daily').ifExists().execute()
  await db.schema.dropTable('analytics_ratings_daily').ifExists().execute()
}
