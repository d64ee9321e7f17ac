// Frozen: questions and answers under lessons, their upvotes, reports and the creators' daily digest (issue 33).
// Never import application code here.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('lesson_questions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('lesson_id', 'uuid', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('author_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`char_length(title) between 1 and 200`))
    .addColumn('body_markdown', 'text', (c) => c.notNull().check(sql`char_length(body_markdown) <= 10000`))
    .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('answer_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('answered_at', 'timestamptz')
    .addColumn('answered_mail_at', 'timestamptz')
    .addColumn('hidden_at', 'timestamptz')
    .addColumn('hidden_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  // Keyset pagination per lesson in each sort, and per course (search, digest).
  await sql`create index lesson_questions_newest_idx on lesson_questions (lesson_id, created_at desc, id desc)`.execute(
    db,
  )
  await sql`create index lesson_questions_votes_idx on lesson_questions (lesson_id, upvotes desc, created_at desc, id desc)`.execute(
    db,
  )
  await sql`create index lesson_questions_open_idx on lesson_questions (lesson_id, created_at desc, id desc)
    where answered_at is null`.execute(db)
  await sql`create index lesson_questions_course_idx on lesson_questions (course_id, created_at desc, id desc)`.execute(
    db,
  )
  await sql`create index lesson_questions_text_trgm_idx on lesson_questions
    using gin ((title || ' ' || body_markdown) gin_trgm_ops)`.execute(db)

  await db.schema
    .createTable('lesson_answers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('question_id', 'uuid', (c) => c.notNull().references('lesson_questions.id').onDelete('cascade'))
    .addColumn('author_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('body_markdown', 'text', (c) => c.notNull().check(sql`char_length(body_markdown) between 1 and 10000`))
    .addColumn('hidden_at', 'timestamptz')
    .addColumn('hidden_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await db.schema
    .createIndex('lesson_answers_question_idx')
    .on('lesson_answers')
    .columns(['question_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('lesson_question_votes')
    .addColumn('question_id', 'uuid', (c) => c.notNull().references('lesson_questions.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('lesson_question_votes_pk', ['question_id', 'user_id'])
    .execute()

  await db.schema
    .createTable('lesson_post_reports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('question_id', 'uuid', (c) => c.notNull().references('lesson_questions.id').onDelete('cascade'))
    .addColumn('answer_id', 'uuid', (c) => c.references('lesson_answers.id').onDelete('cascade'))
    .addColumn('reporter_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`char_length(reason) between 1 and 500`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()
  await sql`create unique index lesson_post_reports_once on lesson_post_reports
    (reporter_id, question_id, coalesce(answer_id, '00000000-0000-0000-0000-000000000000'::uuid))`.execute(db)

  // The creator's daily digest of new questions: opted out per course, and sent once per course, person and day.
  await db.schema
    .createTable('question_digest_optouts')
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('question_digest_optouts_pk', ['course_id', 'user_id'])
    .execute()
  await db.schema
    .createTable('question_digests')
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('questions', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('question_digests_pk', ['course_id', 'user_id', 'day'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'question_digests',
    'question_digest_optouts',
    'lesson_post_reports',
    'lesson_question_votes',
    'lesson_answers',
    'lesson_questions',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
