// Frozen: analytics (issue 35). Course-page views and add-to-cart counted per course and UTC day by the server;
// daily rollups of sales per course, day and currency; snapshots of learners' progress, per-lesson reach, video
// drop-off and quiz pass rates per course; the rollup job's watermarks. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // Counters written in batches by the web nodes (one upsert per course and day per flush).
  await db.schema
    .createTable('course_event_counts')
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cart_adds', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('course_event_counts_pk', ['course_id', 'day'])
    .execute()
  await sql`create index course_event_counts_day_idx on course_event_counts (day)`.execute(db)

  // One row per course, UTC day and currency with any sale or refund that day (a refund lands on its own day).
  await db.schema
    .createTable('analytics_sales_daily')
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('gross_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('discount_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refund_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('platform_fee_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('net_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('units', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('units_direct', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('units_coupon', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('units_bundle', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('units_gift', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refunds', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_sales_daily_pk', ['course_id', 'day', 'currency'])
    .execute()
  await sql`create index analytics_sales_daily_day_idx on analytics_sales_daily (day)`.execute(db)

  // Learners of a course by how far they got (cumulative: 25 counts those at 50 too), refreshed by the job.
  await db.schema
    .createTable('analytics_course_progress')
    .addColumn('course_id', 'text', (c) => c.primaryKey())
    .addColumn('started', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('p25', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('p50', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('p75', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refreshed_at', 'timestamptz', (c) => c.notNull())
    .execute()

  // Per lesson: learners who reached it, completed it; where video viewers stopped (10-second buckets); quiz passes.
  await db.schema
    .createTable('analytics_lesson_stats')
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('lesson_id', 'uuid', (c) => c.notNull())
    .addColumn('reached', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stop_buckets', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('quiz_takers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quiz_passers', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_lesson_stats_pk', ['course_id', 'lesson_id'])
    .execute()

  // The job's watermarks: the last UTC day whose sales are rolled up, the progress changes already folded in.
  await db.schema
    .createTable('analytics_rollup_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()

  // The job finds changed courses since its watermark without scanning every progress row.
  await sql`create index if not exists lesson_progress_updated_idx on lesson_progress (updated_at)`.execute(db)
  await sql`create index if not exists order_items_refunded_at_idx on order_items (refunded_at) where refunded_at is not null`.execute(
    db,
  )
  await sql`create index if not exists orders_paid_at_idx on orders (paid_at) where paid_at is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_paid_at_idx`.execute(db)
  await sql`drop index if exists order_items_refunded_at_idx`.execute(db)
  await sql`drop index if exists lesson_progress_updated_idx`.execute(db)
  for (const table of [
    'analytics_rollup_state',
    'analytics_lesson_stats',
    'analytics_course_progress',
    'analytics_sales_daily',
    'course_event_counts',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
