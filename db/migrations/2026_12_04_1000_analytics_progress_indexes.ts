// Frozen: the analytics job's course snapshots (issue 35) read a course's learners by course: lesson progress, quiz
// attempts and completions had indexes by learner only, so each refresh of 500 courses scanned the whole tables
// (millions of progress rows at scale). Indexes by course. And the pages' learners table (the 50 courses with most
// learners) sorted every snapshot after joining the courses: at 1M courses the shop's took 165-310 ms (a hash join
// of the catalogue); an index in its order reads 50 rows. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists lesson_progress_course_lesson_idx on lesson_progress (course_id, lesson_id)`.execute(
    db,
  )
  await sql`create index if not exists quiz_attempts_course_idx on quiz_attempts (course_id, lesson_id)
    where submitted_at is not null`.execute(db)
  await sql`create index if not exists course_completions_course_idx on course_completions (course_id)`.execute(db)
  await sql`create index if not exists analytics_course_progress_started_idx
    on analytics_course_progress (started desc, course_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists analytics_course_progress_started_idx`.execute(db)
  await sql`drop index if exists course_completions_course_idx`.execute(db)
  await sql`drop index if exists quiz_attempts_course_idx`.execute(db)
  await sql`drop index if exists lesson_progress_course_lesson_idx`.execute(db)
}
