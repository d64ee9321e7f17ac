// Frozen: quizzes and graded certificates (issue 33). A quiz is a lesson kind; its definition (settings and
// questions with their answer key) is one row per quiz lesson; each learner's attempt is one row, graded on the
// server. A certificate carries the course's final grade. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table lessons drop constraint if exists lessons_kind_check`.execute(db)
  await sql`alter table lessons add constraint lessons_kind_check check (kind in ('article','video','quiz'))`.execute(
    db,
  )
  await db.schema
    .createTable('quizzes')
    .addColumn('lesson_id', 'uuid', (c) => c.primaryKey().references('lessons.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('pass_percent', 'integer', (c) => c.notNull().defaultTo(80).check(sql`pass_percent between 1 and 100`))
    .addColumn('max_attempts', 'integer', (c) => c.check(sql`max_attempts is null or max_attempts between 1 and 100`))
    .addColumn('wait_seconds', 'integer', (c) => c.notNull().defaultTo(0).check(sql`wait_seconds >= 0`))
    .addColumn('time_limit_seconds', 'integer', (c) =>
      c.check(sql`time_limit_seconds is null or time_limit_seconds > 0`),
    )
    .addColumn('shuffle_questions', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('shuffle_options', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('required', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('questions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('quizzes_course_idx').on('quizzes').column('course_id').execute()
  await db.schema
    .createTable('quiz_attempts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('lesson_id', 'uuid', (c) => c.notNull().references('quizzes.lesson_id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deadline_at', 'timestamptz')
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('layout', 'jsonb', (c) => c.notNull())
    .addColumn('answers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('results', 'jsonb')
    .addColumn('question_count', 'integer', (c) => c.notNull())
    .addColumn('correct_count', 'integer')
    .addColumn('score_percent', 'integer')
    .addColumn('passed', 'boolean')
    .execute()
  await db.schema
    .createIndex('quiz_attempts_learner_idx')
    .on('quiz_attempts')
    .columns(['lesson_id', 'user_id', 'started_at'])
    .execute()
  // One open attempt per learner and quiz, even when two tabs start one at the same moment.
  await sql`create unique index quiz_attempts_open_idx on quiz_attempts (lesson_id, user_id)
    where submitted_at is null`.execute(db)
  await db.schema.alterTable('certificates').addColumn('grade_percent', 'integer').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('certificates').dropColumn('grade_percent').execute()
  await db.schema.dropTable('quiz_attempts').ifExists().execute()
  await db.schema.dropTable('quizzes').ifExists().execute()
  await sql`delete from lessons where kind = 'quiz'`.execute(db)
  await sql`alter table lessons drop constraint if exists lessons_kind_check`.execute(db)
  await sql`alter table lessons add constraint lessons_kind_check check (kind in ('article','video'))`.execute(db)
}
