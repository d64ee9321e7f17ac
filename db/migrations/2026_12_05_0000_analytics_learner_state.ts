// Frozen: the analytics job folds in only what learners changed since its last run (issue 35). It recounted every
// row of each course whose learners moved: at 19M progress rows a day's snapshots took 161 s, growing with the
// courses' rows, not the day's changes. It now keeps what it counted for each learner: per learner and lesson
// (reached, completed, where the video stopped, quiz taken and passed) and per learner and course (lessons done),
// and per course how many learners have done how many lessons. A day's run reads the moved learners' rows, compares
// them with what it counted and adds the difference. Indexes for the moved learners' quiz attempts and for deleting
// a lesson's progress (the primary key leads with the learner: a lesson's delete scanned the table). Never import
// application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('analytics_learner_lessons')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('lesson_id', 'uuid', (c) => c.notNull())
    .addColumn('reached', 'boolean', (c) => c.notNull())
    .addColumn('completed', 'boolean', (c) => c.notNull())
    .addColumn('stop_bucket', 'integer')
    .addColumn('quiz_taken', 'boolean', (c) => c.notNull())
    .addColumn('quiz_passed', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_learner_lessons_pk', ['user_id', 'course_id', 'lesson_id'])
    .execute()
  await db.schema
    .createTable('analytics_learner_courses')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_learner_courses_pk', ['user_id', 'course_id'])
    .execute()
  await db.schema
    .createTable('analytics_course_done_counts')
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull())
    .addColumn('learners', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_course_done_counts_pk', ['course_id', 'done'])
    .execute()
  await sql`create index if not exists quiz_attempts_submitted_learner_idx on quiz_attempts (user_id, course_id)
    where submitted_at is not null`.execute(db)
  await sql`create index if not exists quiz_attempts_submitted_at_idx on quiz_attempts (submitted_at)
    where submitted_at is not null`.execute(db)
  await sql`create index if not exists lesson_progress_lesson_idx on lesson_progress (lesson_id)`.execute(db)
  // When a progress row last changed, by the database's clock and whoever writes it: updated_at is the moment of the
  // saved video position (sent by the player) and a "Mark as complete" click or its undo leaves it alone, so the job
  // missed those. Rows from before have none: their updated_at stands in (no rewrite of a table of millions).
  await sql`alter table lesson_progress add column changed_at timestamptz`.execute(db)
  await sql`alter table lesson_progress alter column changed_at set default now()`.execute(db)
  await sql`
    create function lesson_progress_changed() returns trigger language plpgsql as $$
    begin
      new.changed_at := now();
      return new;
    end $$`.execute(db)
  await sql`create trigger lesson_progress_changed before update on lesson_progress
    for each row execute function lesson_progress_changed()`.execute(db)
  await sql`create index if not exists lesson_progress_changed_idx on lesson_progress ((coalesce(changed_at, updated_at)))`.execute(
    db,
  )
  // The snapshots so far were recounted from every row: the first run after this one folds every learner in.
  await sql`delete from analytics_rollup_state where name = 'progress_at'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists lesson_progress_changed_idx`.execute(db)
  await sql`drop trigger if exists lesson_progress_changed on lesson_progress`.execute(db)
  await sql`drop function if exists lesson_progress_changed()`.execute(db)
  await sql`alter table lesson_progress drop column if exists changed_at`.execute(db)
  await sql`drop index if exists lesson_progress_lesson_idx`.execute(db)
  await sql`drop index if exists quiz_attempts_submitted_at_idx`.execute(db)
  await sql`drop index if exists quiz_attempts_submitted_learner_idx`.execute(db)
  await db.schema.dropTable('analytics_course_done_counts').execute()
  await db.schema.dropTable('analytics_learner_courses').execute()
  await db.schema.dropTable('analytics_learner_lessons').execute()
}
