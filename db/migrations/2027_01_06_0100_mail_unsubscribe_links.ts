// Frozen: the one-click unsubscribe links of a course's news (a dripped section opening, a live session scheduled) and
// of an instructor's daily digest of a course's new questions. One random link per mail, kept as its SHA-256 with whose
// mails of which course it stops. Purged with the copies of the mails they came in. Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_unsubscribe_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('list', 'text', (col) => col.notNull().check(sql`list in ('course_news', 'question_digest')`))
    .addColumn('course_id', 'text', (col) => col.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('mail_unsubscribe_links_created_idx')
    .on('mail_unsubscribe_links')
    .column('created_at')
    .execute()
  await db.schema
    .createIndex('mail_unsubscribe_links_user_idx')
    .on('mail_unsubscribe_links')
    .column('user_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_unsubscribe_links').execute()
}
