// Snapshots of what learners do in a course, kept by the analytics job: how far each learner got (started, 25 / 50 /
// 75 % of the lessons completed, the course completed), per lesson who reached and completed it, where video viewers
// stopped (the end of the last watched range, in 10-second buckets), and who passed its quiz (of those who submitted
// an attempt).
//
// Incremental: the job keeps what it counted of each learner (analytics_learner_lessons, analytics_learner_courses)
// and, when learners move, reads only their rows, compares them with what it counted and adds the difference to the
// course's and lessons' counts. A day's run costs the day's moved learners, not every row of the courses they are in
// (at 19M progress rows, recounting those courses took 161 s). The counts always equal what the kept rows add up to:
// each fold replaces the learners' kept rows and adds their difference in one transaction, one fold at a time, so a
// rerun (or a second worker) finds nothing to add.
import { sql } from 'kysely'
import type { AnalyticsCourseProgressTable } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { insertInChunks } from './insert-chunks.ts'

export const STOP_BUCKET_SECONDS = 10

export interface Learner {
  userId: string
  courseId: string
}

const PROGRESS_LOCK = sql`select pg_advisory_xact_lock(hashtext('analytics:progress'))`

/** Forgets every count (the next folds start from nothing): the rebuild when the job has no watermark. */
export async function clearProgressCounts(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await PROGRESS_LOCK.execute(trx)
    for (const table of [
      'analytics_learner_lessons',
      'analytics_learner_courses',
      'analytics_course_done_counts',
      'analytics_lesson_stats',
      'analytics_course_progress',
    ] as const) {
      await trx.deleteFrom(table).execute()
    }
  })
}

/** Every learner with progress or a submitted quiz in these courses (the rebuild folds them a batch of courses at a time). */
export async function learnersOfCourses(db: DB, courseIds: readonly string[]): Promise<Learner[]> {
  const ids = [...courseIds]
  const { rows } = await sql<{ user_id: string; course_id: string }>`
    select user_id, course_id from lesson_progress where course_id = any(${ids})
    union
    select user_id, course_id from quiz_attempts where course_id = any(${ids}) and submitted_at is not null`.execute(db)
  return rows.map((row) => ({ userId: row.user_id, courseId: row.course_id }))
}

/** Folds these learners' current rows into the counts (by difference with what was counted of them before). */
export async function foldLearners(db: DB, learners: readonly Learner[]): Promise<void> {
  if (learners.length === 0) return
  await db.transaction().execute(async (trx) => {
    await PROGRESS_LOCK.execute(trx)
    // Every join here looks up a few thousand learners in tables of millions by their keys. Just after a bulk load
    // (the rebuild) the planner's estimates are stale and it hashed the whole kept table (19M rows: 3-4 s a statement,
    // against 0.3-1 s by the index); and a compiled plan is not worth its JIT at this size.
    await sql`set local enable_hashjoin = off`.execute(trx)
    await sql`set local enable_mergejoin = off`.execute(trx)
    await sql`set local jit = off`.execute(trx)
    await sql`create temp table moved_learners (user_id uuid, course_id text, primary key (user_id, course_id))
      on commit drop`.execute(trx)
    await sql`insert into moved_learners
      select * from unnest(${learners.map((l) => l.userId)}::uuid[], ${learners.map((l) => l.courseId)}::text[])
      on conflict do nothing`.execute(trx)
    await sql`analyze moved_learners`.execute(trx)
    // What the learners' rows say now, one row per learner and lesson (a progress row, a submitted quiz, or both).
    await sql`create temp table fresh_lessons on commit drop as
      select coalesce(p.user_id, q.user_id) as user_id, coalesce(p.course_id, q.course_id) as course_id,
        coalesce(p.lesson_id, q.lesson_id) as lesson_id,
        p.user_id is not null as reached,
        coalesce(p.completed_at is not null, false) as completed,
        case when jsonb_array_length(p.watched_ranges) > 0
          then floor(((p.watched_ranges -> -1 ->> 1)::float8) / ${STOP_BUCKET_SECONDS})::int end as stop_bucket,
        q.user_id is not null as quiz_taken,
        coalesce(q.passed, false) as quiz_passed
      from (
        select lp.user_id, lp.course_id, lp.lesson_id, lp.completed_at, lp.watched_ranges
        from moved_learners m join lesson_progress lp on lp.user_id = m.user_id and lp.course_id = m.course_id
      ) p
      full join (
        select qa.user_id, qa.course_id, qa.lesson_id, coalesce(bool_or(qa.passed), false) as passed
        from moved_learners m join quiz_attempts qa on qa.user_id = m.user_id and qa.course_id = m.course_id
        where qa.submitted_at is not null
        group by qa.user_id, qa.course_id, qa.lesson_id
      ) q on q.user_id = p.user_id and q.course_id = p.course_id and q.lesson_id = p.lesson_id`.execute(trx)
    // What was counted of them.
    await sql`create temp table counted_lessons on commit drop as
      select s.* from moved_learners m
      join analytics_learner_lessons s on s.user_id = m.user_id and s.course_id = m.course_id`.execute(trx)

    await foldLessonCounts(trx)
    // How many learners have done how many lessons: a moved learner leaves their old count and joins the new one.
    await sql`insert into analytics_course_done_counts (course_id, done, learners)
      select course_id, done, sum(n)::int from (
        select course_id, count(*) filter (where completed)::int as done, 1 as n
        from fresh_lessons where reached group by user_id, course_id
        union all
        select c.course_id, c.done, -1 from moved_learners m
        join analytics_learner_courses c on c.user_id = m.user_id and c.course_id = m.course_id
      ) moves group by course_id, done having sum(n) <> 0
      on conflict (course_id, done) do update set learners = analytics_course_done_counts.learners + excluded.learners`.execute(
      trx,
    )
    await sql`delete from analytics_course_done_counts
      where learners = 0 and course_id in (select course_id from moved_learners)`.execute(trx)

    // Keep what was counted now.
    await sql`delete from analytics_learner_courses c using moved_learners m
      where c.user_id = m.user_id and c.course_id = m.course_id`.execute(trx)
    await sql`insert into analytics_learner_courses (user_id, course_id, done)
      select user_id, course_id, count(*) filter (where completed)::int
      from fresh_lessons where reached group by user_id, course_id`.execute(trx)
    await sql`delete from analytics_learner_lessons s using moved_learners m
      where s.user_id = m.user_id and s.course_id = m.course_id`.execute(trx)
    await sql`insert into analytics_learner_lessons
      (user_id, course_id, lesson_id, reached, completed, stop_bucket, quiz_taken, quiz_passed)
      select user_id, course_id, lesson_id, reached, completed, stop_bucket, quiz_taken, quiz_passed
      from fresh_lessons`.execute(trx)
  })
}

interface LessonStats {
  course_id: string
  lesson_id: string
  reached: number
  completed: number
  stop_buckets: number[]
  quiz_takers: number
  quiz_passers: number
}

/** Adds the moved learners' difference to their lessons' counts and stop buckets. */
async function foldLessonCounts(trx: DB): Promise<void> {
  const [counts, buckets] = await Promise.all([
    sql<Omit<LessonStats, 'stop_buckets'>>`
      select course_id, lesson_id, sum(reached)::int as reached, sum(completed)::int as completed,
        sum(quiz_taken)::int as quiz_takers, sum(quiz_passed)::int as quiz_passers
      from (
        select course_id, lesson_id, reached::int, completed::int, quiz_taken::int, quiz_passed::int from fresh_lessons
        union all
        select course_id, lesson_id, -reached::int, -completed::int, -quiz_taken::int, -quiz_passed::int
        from counted_lessons
      ) moves group by course_id, lesson_id
      having sum(reached) <> 0 or sum(completed) <> 0 or sum(quiz_taken) <> 0 or sum(quiz_passed) <> 0`.execute(trx),
    sql<{ course_id: string; lesson_id: string; bucket: number; viewers: number }>`
      select course_id, lesson_id, stop_bucket as bucket, sum(n)::int as viewers from (
        select course_id, lesson_id, stop_bucket, 1 as n from fresh_lessons where stop_bucket is not null
        union all
        select course_id, lesson_id, stop_bucket, -1 from counted_lessons where stop_bucket is not null
      ) moves group by course_id, lesson_id, stop_bucket having sum(n) <> 0`.execute(trx),
  ])
  if (counts.rows.length === 0 && buckets.rows.length === 0) return
  const key = (row: { course_id: string; lesson_id: string }) => `${row.course_id} ${row.lesson_id}`
  const courseIds = [...new Set([...counts.rows, ...buckets.rows].map((row) => row.course_id))]
  const current = await trx
    .selectFrom('analytics_lesson_stats')
    .selectAll()
    .where('course_id', 'in', courseIds)
    .execute()
  const stats = new Map<string, LessonStats>(current.map((row) => [key(row), row]))
  const changed = new Map<string, LessonStats>()
  const statsOf = (row: { course_id: string; lesson_id: string }) => {
    const found = changed.get(key(row)) ?? stats.get(key(row))
    const next: LessonStats = found
      ? { ...found, stop_buckets: [...found.stop_buckets] }
      : {
          course_id: row.course_id,
          lesson_id: row.lesson_id,
          reached: 0,
          completed: 0,
          stop_buckets: [],
          quiz_takers: 0,
          quiz_passers: 0,
        }
    changed.set(key(row), next)
    return next
  }
  for (const row of counts.rows) {
    const next = statsOf(row)
    next.reached += row.reached
    next.completed += row.completed
    next.quiz_takers += row.quiz_takers
    next.quiz_passers += row.quiz_passers
  }
  for (const row of buckets.rows) {
    const next = statsOf(row)
    while (next.stop_buckets.length <= row.bucket) next.stop_buckets.push(0)
    next.stop_buckets[row.bucket] = (next.stop_buckets[row.bucket] ?? 0) + row.viewers
  }
  const rows = [...changed.values()]
  for (const row of rows) {
    // A bucket nobody stops in any more at the end is dropped: the list ends at the last stop, as a recount has it.
    while (row.stop_buckets.length > 0 && row.stop_buckets.at(-1) === 0) row.stop_buckets.pop()
  }
  await sql`delete from analytics_lesson_stats s
    using unnest(${rows.map((row) => row.course_id)}::text[], ${rows.map((row) => row.lesson_id)}::uuid[]) as x(course_id, lesson_id)
    where s.course_id = x.course_id and s.lesson_id = x.lesson_id`.execute(trx)
  // A lesson nobody reached nor took a quiz of has no row (as before anyone did).
  await insertInChunks(
    trx,
    'analytics_lesson_stats',
    rows
      .filter((row) => row.reached > 0 || row.quiz_takers > 0)
      .map((row) => ({ ...row, stop_buckets: JSON.stringify(row.stop_buckets) })),
  )
}

/** Rewrites the courses' learner snapshots from the done counts, their lessons today and their completions. */
export async function refreshCourseProgress(db: DB, courseIds: readonly string[]): Promise<void> {
  if (courseIds.length === 0) return
  const ids = [...courseIds]
  const now = clock.now()
  await db.transaction().execute(async (trx) => {
    await PROGRESS_LOCK.execute(trx)
    const { rows } = await sql<Omit<AnalyticsCourseProgressTable, 'refreshed_at'>>`
      with sized as (
        select course_id, count(*)::int as n from lessons
        where course_id = any(${ids}) and not pending_review group by course_id
      )
      select h.course_id, sum(h.learners)::int as started,
        coalesce(sum(h.learners) filter (where s.n > 0 and h.done * 4 >= s.n), 0)::int as p25,
        coalesce(sum(h.learners) filter (where s.n > 0 and h.done * 2 >= s.n), 0)::int as p50,
        coalesce(sum(h.learners) filter (where s.n > 0 and h.done * 4 >= s.n * 3), 0)::int as p75,
        (select count(*)::int from course_completions c where c.course_id = h.course_id) as completed
      from analytics_course_done_counts h left join sized s on s.course_id = h.course_id
      where h.course_id = any(${ids})
      group by h.course_id`.execute(trx)
    await trx.deleteFrom('analytics_course_progress').where('course_id', 'in', ids).execute()
    await insertInChunks(
      trx,
      'analytics_course_progress',
      rows.map((row) => ({ ...row, refreshed_at: now })),
    )
  })
}

/** Folds every learner of these courses and rewrites their snapshots (tests, and the hourly job's rebuild). */
export async function refreshCourseStats(db: DB, courseIds: readonly string[]): Promise<void> {
  await foldLearners(db, await learnersOfCourses(db, courseIds))
  await refreshCourseProgress(db, courseIds)
}
