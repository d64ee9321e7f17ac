// Premium watch time: the seconds of new watching (growth of a lesson's watched ranges, so re-watching adds nothing)
// by learners whose access to the course is Premium, per month (UTC) and course. The progress save adds to it with
// one upsert; the monthly Premium pool (flows/premium-pool.ts) splits by its sums.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'

/** `YYYY-MM` of an instant, in UTC. */
export const watchMonthOf = (at: Date) => `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`

/** Adds `seconds` to the member's watch time of the course in the month of `at` (in the caller's transaction). */
export async function recordPremiumWatch(
  db: DB,
  watch: { userId: string; courseId: string; seconds: number; at: Date },
): Promise<void> {
  if (!(watch.seconds > 0) || !Number.isFinite(watch.seconds)) return
  await db
    .insertInto('premium_watch_time')
    .values({
      month: watchMonthOf(watch.at),
      course_id: watch.courseId,
      user_id: watch.userId,
      seconds: watch.seconds,
      updated_at: watch.at,
    })
    .onConflict((oc) =>
      oc.columns(['month', 'course_id', 'user_id']).doUpdateSet({
        seconds: sql<number>`premium_watch_time.seconds + excluded.seconds`,
        updated_at: watch.at,
      }),
    )
    .execute()
}

/** Per course, the seconds Premium members watched in the month (courses with none are absent). */
export async function premiumWatchByCourse(db: DB, month: string): Promise<{ courseId: string; seconds: number }[]> {
  const rows = await db
    .selectFrom('premium_watch_time')
    .select(['course_id', (eb) => eb.fn.sum<number | string>('seconds').as('seconds')])
    .where('month', '=', month)
    .groupBy('course_id')
    .orderBy('course_id')
    .execute()
  return rows.map((row) => ({ courseId: row.course_id, seconds: Number(row.seconds) })).filter((r) => r.seconds > 0)
}

/** Per course of the list, the seconds Premium members watched in the month so far (the studio's running figure). */
export async function premiumWatchOfCourses(
  db: DB,
  month: string,
  courseIds: readonly string[],
): Promise<Map<string, number>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('premium_watch_time')
    .select(['course_id', (eb) => eb.fn.sum<number | string>('seconds').as('seconds')])
    .where('month', '=', month)
    .where('course_id', 'in', courseIds)
    .groupBy('course_id')
    .execute()
  return new Map(rows.map((row) => [row.course_id, Number(row.seconds)]))
}
