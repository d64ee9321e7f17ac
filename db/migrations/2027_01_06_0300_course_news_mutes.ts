// Frozen: a person may stop one course's news by e-mail (a dripped section opening, a live session scheduled) and keep
// the others'. A row says this person wants no news of this course by e-mail. Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('course_news_mutes')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (col) => col.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('course_news_mutes_pkey', ['user_id', 'course_id'])
    .execute()
  await db.schema.createIndex('course_news_mutes_course_idx').on('course_news_mutes').column('course_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('course_news_mutes').execute()
}
