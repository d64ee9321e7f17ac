// Frozen: messages between members and a course's instructors (issue 34): one thread per member and course, its
// messages, read marks, attachments, blocks, reports, and the daily digest option. Never import application code.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('course_message_threads')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('member_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull().check(sql`char_length(subject) between 1 and 200`))
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('course_message_threads_pair', ['course_id', 'member_id'])
    .execute()
  await sql`create index course_message_threads_inbox_idx on course_message_threads (course_id, last_message_at desc)`.execute(
    db,
  )
  await sql`create index course_message_threads_member_idx on course_message_threads (member_id, last_message_at desc)`.execute(
    db,
  )

  await db.schema
    .createTable('course_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('thread_id', 'uuid', (c) => c.notNull().references('course_message_threads.id').onDelete('cascade'))
    .addColumn('author_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('from_instructor', 'boolean', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().check(sql`char_length(body) between 1 and 5000`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema
    .createIndex('course_messages_thread_idx')
    .on('course_messages')
    .columns(['thread_id', 'created_at'])
    .execute()

  // Each reader's mark (the member and each instructor): messages of the other side after it are unread.
  await db.schema
    .createTable('course_message_reads')
    .addColumn('thread_id', 'uuid', (c) => c.notNull().references('course_message_threads.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('course_message_reads_pk', ['thread_id', 'user_id'])
    .execute()

  await db.schema
    .createTable('course_message_files')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // Uploaded before the message (and, for a first message, before the thread): tied to both when it is sent.
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('thread_id', 'uuid', (c) => c.references('course_message_threads.id').onDelete('cascade'))
    .addColumn('message_id', 'uuid', (c) => c.references('course_messages.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema
    .createIndex('course_message_files_thread_idx')
    .on('course_message_files')
    .column('thread_id')
    .execute()

  await db.schema
    .createTable('course_message_blocks')
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('member_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_by', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('reason', 'text', (c) => c.check(sql`char_length(reason) <= 500`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('course_message_blocks_pk', ['course_id', 'member_id'])
    .execute()

  await db.schema
    .createTable('course_message_reports')
    .addColumn('thread_id', 'uuid', (c) => c.notNull().references('course_message_threads.id').onDelete('cascade'))
    .addColumn('reporter_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`char_length(reason) between 1 and 500`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('course_message_reports_pk', ['thread_id', 'reporter_id'])
    .execute()

  // A person who chose one e-mail a day instead of one per message; the digest is sent once per person and day.
  await db.schema
    .createTable('course_message_mail_settings')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('daily_digest', 'boolean', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('course_message_digests')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('messages', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('course_message_digests_pk', ['user_id', 'day'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'course_message_digests',
    'course_message_mail_settings',
    'course_message_reports',
    'course_message_blocks',
    'course_message_files',
    'course_message_reads',
    'course_messages',
    'course_message_threads',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
