// Snapshots of what learners do in a course, refreshed by the analytics job for the courses that changed: how far
// each learner got (started, 25 / 50 / 75 % of the lessons completed, the course completed), per lesson who reached
// and completed it, where video viewers stopped (the end of the last watched range, in 10-second buckets), and who
// passed its quiz (of those who submitted an attempt).
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { insertInChunks } from './insert-chunks.ts'

export const STOP_BUCKET_SECONDS = 10

export async function refreshCourseStats(db: DB, courseIds: readonly string[]): Promise<void> {
  if (courseIds.length === 0) return
  const ids = [...courseIds]
  const [progress, lessons, stops, quizzes] = await Promise.all([
    sql<{ course_id: string; started: number; p25: number; p50: number; p75: number; completed: number }>`
      with sized as (
        select course_id, count(*)::int as n from lessons
        where course_id = any(${ids}) and not pending_review group by course_id
      ), learners as (
        select course_id, user_id, count(*) filter (where completed_at is not null)::int as done
        from lesson_progress where course_id = any(${ids}) group by course_id, user_id
      )
      select l.course_id, count(*)::int as started,
        count(*) filter (where s.n > 0 and l.done * 4 >= s.n)::int as p25,
        count(*) filter (where s.n > 0 and l.done * 2 >= s.n)::int as p50,
        count(*) filter (where s.n > 0 and l.done * 4 >= s.n * 3)::int as p75,
        (select count(*)::int from course_completions c where c.course_id = l.course_id) as completed
      from learners l left join sized s on s.course_id = l.course_id
      group by l.course_id`.execute(db),
    sql<{ course_id: string; lesson_id: string; reached: number; completed: number }>`
      select course_id, lesson_id, count(*)::int as reached,
        count(*) filter (where completed_at is not null)::int as completed
      from lesson_progress where course_id = any(${ids}) group by course_id, lesson_id`.execute(db),
    sql<{ lesson_id: string; bucket: number; viewers: number }>`
      select lesson_id, floor(((watched_ranges -> -1 ->> 1)::float8) / ${STOP_BUCKET_SECONDS})::int as bucket,
        count(*)::int as viewers
      from lesson_progress
      where course_id = any(${ids}) and jsonb_array_length(watched_ranges) > 0
      group by lesson_id, bucket`.execute(db),
    sql<{ course_id: string; lesson_id: string; takers: number; passers: number }>`
      select course_id, lesson_id, count(distinct user_id)::int as takers,
        count(distinct user_id) filter (where passed)::int as passers
      from quiz_attempts where course_id = any(${ids}) and submitted_at is not null
      group by course_id, lesson_id`.execute(db),
  ])

  const buckets = new Map<string, number[]>()
  for (const row of stops.rows) {
    const list = buckets.get(row.lesson_id) ?? []
    while (list.length <= row.bucket) list.push(0)
    list[row.bucket] = (list[row.bucket] ?? 0) + row.viewers
    buckets.set(row.lesson_id, list)
  }
  const lessonRows = new Map<string, { course_id: string; lesson_id: string; reached: number; completed: number }>()
  for (const row of lessons.rows) lessonRows.set(row.lesson_id, row)
  const quizRows = new Map(quizzes.rows.map((row) => [row.lesson_id, row]))
  for (const row of quizzes.rows) {
    if (!lessonRows.has(row.lesson_id)) {
      lessonRows.set(row.lesson_id, { course_id: row.course_id, lesson_id: row.lesson_id, reached: 0, completed: 0 })
    }
  }
  const now = clock.now()
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('analytics_course_progress').where('course_id', 'in', ids).execute()
    await trx.deleteFrom('analytics_lesson_stats').where('course_id', 'in', ids).execute()
    await insertInChunks(
      trx,
      'analytics_course_progress',
      progress.rows.map((row) => ({ ...row, refreshed_at: now })),
    )
    const values = [...lessonRows.values()].map((row) => ({
      course_id: row.course_id,
      lesson_id: row.lesson_id,
      reached: row.reached,
      completed: row.completed,
      stop_buckets: JSON.stringify(buckets.get(row.lesson_id) ?? []),
      quiz_takers: quizRows.get(row.lesson_id)?.takers ?? 0,
      quiz_passers: quizRows.get(row.lesson_id)?.passers ?? 0,
    }))
    await insertInChunks(trx, 'analytics_lesson_stats', values)
  })
}
