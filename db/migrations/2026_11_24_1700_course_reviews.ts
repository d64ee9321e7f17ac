// Frozen: verified course reviews as of 2026-11-24. Never import application code here.
// One review per learner and course (1–5 stars, optional text up to 2,000 characters); staff may hide one. The
// courses' rating and review_count become the aggregate of the visible reviews, kept by the app in the same
// transaction as each review change. No review rows exist yet, so every course's aggregate starts at zero: the demo
// numbers written before had no rows behind them (the seed now writes reviews and derives the numbers from them).
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('course_reviews')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('rating', 'smallint', (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn('body', 'text', (c) => c.notNull().defaultTo('').check(sql`char_length(body) <= 2000`))
    .addColumn('hidden_at', 'timestamptz')
    .addColumn('hidden_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('course_reviews_course_user_key', ['course_id', 'user_id'])
    .execute()
  // The course page's list (newest first) and the aggregate read only visible reviews of one course.
  await sql`create index course_reviews_visible_idx on course_reviews (course_id, created_at desc, id)
    where hidden_at is null`.execute(db)
  await db.schema.createIndex('course_reviews_user_idx').on('course_reviews').column('user_id').execute()
  // Staff's list: every review, newest first.
  await db.schema.createIndex('course_reviews_created_idx').on('course_reviews').column('created_at').execute()
  await sql`update courses set rating = 0, review_count = 0 where rating <> 0 or review_count <> 0`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('course_reviews').ifExists().execute()
}
