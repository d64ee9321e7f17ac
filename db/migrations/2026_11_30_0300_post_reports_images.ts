// Frozen: reported lesson posts can be dismissed (the moderators' queue lists open reports only), and images in
// question and answer posts are stored privately per lesson (issue 33). Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('lesson_post_reports')
    .addColumn('dismissed_at', 'timestamptz')
    .addColumn('dismissed_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .execute()
  await sql`create index lesson_post_reports_open on lesson_post_reports (course_id, created_at desc)
    where dismissed_at is null`.execute(db)

  await db.schema
    .createTable('lesson_post_images')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('lesson_id', 'uuid', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('uploader_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('lesson_post_images_uploader')
    .on('lesson_post_images')
    .columns(['uploader_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lesson_post_images').execute()
  await sql`drop index lesson_post_reports_open`.execute(db)
  await db.schema.alterTable('lesson_post_reports').dropColumn('dismissed_by').dropColumn('dismissed_at').execute()
}
