// Frozen: the Premium pool (issue 31, revenue share item 3). Never import application code here.
// - premium_watch_time (learning/): seconds of new watching per Premium member, course and month (UTC), one upsert
//   per progress save of a learner whose access to the course is Premium.
// - premium_pool_months and premium_pool_shares (earnings/): each month's pool per currency (the revenue it came
//   from, the share taken, what was split) and each included course's minutes and share, written once by the
//   monthly job beside the ledger postings that credit the creators.
import { type Kysely, sql } from 'kysely'

const MONTH = sql`month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('premium_watch_time')
    .addColumn('month', 'text', (c) => c.notNull().check(MONTH))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seconds', 'double precision', (c) => c.notNull().defaultTo(0).check(sql`seconds >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The key leads with the month and course: the monthly sum per course reads one range of it.
    .addPrimaryKeyConstraint('premium_watch_time_pkey', ['month', 'course_id', 'user_id'])
    .execute()

  await db.schema
    .createTable('premium_pool_months')
    .addColumn('month', 'text', (c) => c.notNull().check(MONTH))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('USD','GBP')`))
    // Premium revenue taken in the month and given back in it (minor units), and the share of the rest pooled.
    .addColumn('revenue_minor', 'bigint', (c) => c.notNull().check(sql`revenue_minor >= 0`))
    .addColumn('refunded_minor', 'bigint', (c) => c.notNull().check(sql`refunded_minor >= 0`))
    .addColumn('basis_points', 'integer', (c) => c.notNull().check(sql`basis_points between 0 and 10000`))
    .addColumn('pool_minor', 'bigint', (c) => c.notNull().check(sql`pool_minor >= 0`))
    // What went to creators: the pool, or 0 when no included creator course was watched (it stays with the platform).
    .addColumn('distributed_minor', 'bigint', (c) => c.notNull().check(sql`distributed_minor >= 0`))
    .addColumn('watched_seconds', 'double precision', (c) => c.notNull().check(sql`watched_seconds >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('premium_pool_months_pkey', ['month', 'currency'])
    .addCheckConstraint('premium_pool_months_split_check', sql`distributed_minor <= pool_minor`)
    .execute()

  await db.schema
    .createTable('premium_pool_shares')
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('watched_seconds', 'double precision', (c) => c.notNull().check(sql`watched_seconds >= 0`))
    .addColumn('share_minor', 'integer', (c) => c.notNull().check(sql`share_minor >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('premium_pool_shares_pkey', ['month', 'currency', 'course_id'])
    .addForeignKeyConstraint('premium_pool_shares_month_fk', ['month', 'currency'], 'premium_pool_months', [
      'month',
      'currency',
    ])
    .execute()
  await sql`create index premium_pool_shares_creator_idx on premium_pool_shares (creator_id, month)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('premium_pool_shares').execute()
  await db.schema.dropTable('premium_pool_months').execute()
  await db.schema.dropTable('premium_watch_time').execute()
}
