// Frozen: the best sellers of aligned blocks of days (issue 35). The staff page's "Courses sold" table ranked every
// course sold in the range (~141,000 course-currency groups in a quarter at 100k courses: 100–160 ms of grouping); the
// job now keeps, per block of 2^level days (level 0–6, aligned on 1970-01-01), the block's most-sold course-currency
// groups and the most units of any group it leaves out, which bound the ranking of a range made of such blocks.
// The job fills the blocks of days already rolled. Never import application code here.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_sales_top_blocks')
    .addColumn('level', 'smallint', (c) => c.notNull())
    .addColumn('first_day', 'date', (c) => c.notNull())
    // The most units of a course-currency group of the block that is not listed; null when every group is listed.
    .addColumn('rest_max_units', 'integer')
    .addPrimaryKeyConstraint('analytics_sales_top_blocks_pk', ['level', 'first_day'])
    .execute()
  await db.schema
    .createTable('analytics_sales_top')
    .addColumn('level', 'smallint', (c) => c.notNull())
    .addColumn('first_day', 'date', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('units', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_sales_top_pk', ['level', 'first_day', 'course_id', 'currency'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_sales_top').execute()
  await db.schema.dropTable('analytics_sales_top_blocks').execute()
}
