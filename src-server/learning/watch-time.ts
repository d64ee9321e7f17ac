// Premium watch time: the seconds of new watching (growth of a lesson's watched ranges, so re-watching adds nothing)
// by learners whose access to the course is Premium, per month (UTC) and course. The progress save adds to it with
// one upsert; the monthly Premium pool (flows/premium-pool.ts) splits by its sums.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'

/** `YYYY-MM` of an instant, in UTC. */
export const watchMonthOf = (at: Date) => `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`

/**
 * A member's credited Premium watch time never runs ahead of the server's clock (decision 0115): each lesson's
 * allowance is its own (several lessons play at once in several tabs, each believed at up to 2×), so the pool's
 * seconds are also held to one clock per member, at 1×. A save is credited for up to the time from the member's
 * `credited_until` to now, and moves it on by what it credits. Time not used stays for at most
 * PREMIUM_WATCH_BANK_MS (an idle member does not build an allowance that several tabs could spend at once later);
 * a member's first credited save counts from one save interval (15 s) before it.
 */
export const PREMIUM_WATCH_BANK_MS = 5 * 60_000
const FIRST_WATCH_WINDOW_MS = 15_000

/**
 * Adds up to `seconds` to the member's watch time of the course in the month of `at` (in the caller's transaction),
 * as far as the member's watch clock allows; returns the seconds credited.
 */
export async function recordPremiumWatch(
  db: DB,
  watch: { userId: string; courseId: string; seconds: number; at: Date },
): Promise<number> {
  if (!(watch.seconds > 0) || !Number.isFinite(watch.seconds)) return 0
  const atMs = watch.at.getTime()
  await db
    .insertInto('premium_watch_clocks')
    .values({ user_id: watch.userId, credited_until: new Date(atMs - FIRST_WATCH_WINDOW_MS) })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
  // The member's clock row, locked: saves of several lessons (several tabs) take their credit one after another.
  const clockRow = await db
    .selectFrom('premium_watch_clocks')
    .select('credited_until')
    .where('user_id', '=', watch.userId)
    .forUpdate()
    .executeTakeFirstOrThrow()
  const from = Math.max(clockRow.credited_until.getTime(), atMs - PREMIUM_WATCH_BANK_MS)
  const seconds = Math.min(watch.seconds, Math.max(0, (atMs - from) / 1000))
  if (!(seconds > 0)) return 0
  await db
    .updateTable('premium_watch_clocks')
    .set({ credited_until: new Date(from + seconds * 1000) })
    .where('user_id', '=', watch.userId)
    .execute()
  await db
    .insertInto('premium_watch_time')
    .values({
      month: watchMonthOf(watch.at),
      course_id: watch.courseId,
      user_id: watch.userId,
      seconds,
      updated_at: watch.at,
    })
    .onConflict((oc) =>
      oc.columns(['month', 'course_id', 'user_id']).doUpdateSet({
        seconds: sql<number>`premium_watch_time.seconds + excluded.seconds`,
        updated_at: watch.at,
      }),
    )
    .execute()
  return seconds
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

/** The first month (`YYYY-MM`) anyone's Premium watching was recorded, or null (the pool's catch-up starts there). */
export async function firstPremiumWatchMonth(db: DB): Promise<string | null> {
  const row = await db
    .selectFrom('premium_watch_time')
    .select((eb) => eb.fn.min<string | null>('month').as('month'))
    .executeTakeFirst()
  return row?.month ?? null
}
