// The monthly Premium pool (jobs/registry.ts 'earnings.premium-pool', the 1st at 05:00 UTC, before the payouts at
// 06:00): for each closed month not settled yet (the month that ended, and any a missed run left), Premium's revenue
// net of refunds per currency (orders/premium-revenue.ts), the minutes Premium members watched each course
// (learning/watch-time.ts), the courses' owners (catalog/), and the split credited to creators
// (earnings/premium-pool.ts). One transaction per month and currency; running twice pays once.
import { CURRENCIES, type Currency } from '../../src-shared/money.ts'
import { premiumCourseFacts } from '../catalog/premium-courses.ts'
import { courseShares } from '../creators/course-instructors.ts'
import { type PoolOutcome, recordedPoolMonths, recordPoolMonth, type WatchedCourse } from '../earnings/premium-pool.ts'
import { lastMonths, monthBounds, monthOf } from '../earnings/statements.ts'
import type { DB } from '../kernel/db.ts'
import { firstPremiumWatchMonth, premiumWatchByCourse } from '../learning/watch-time.ts'
import { firstPremiumRevenueAt, premiumRevenueOfMonth } from '../orders/premium-revenue.ts'
import { erasedAmong } from '../privacy/deletions.ts'
import { recipientsOf } from './creator-earnings.ts'

/** The default share of Premium's net revenue pooled for creators: 30 % (PREMIUM_POOL_BASIS_POINTS). */
export const DEFAULT_PREMIUM_POOL_BASIS_POINTS = 3000

/** The month (`YYYY-MM`, UTC) before the one of `now`: the month a run on the 1st computes. */
export function poolMonthOf(now: Date): string {
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
  return `${previous.getUTCFullYear()}-${String(previous.getUTCMonth() + 1).padStart(2, '0')}`
}

/**
 * How far back a run looks for a month no run settled: two years of missed 1sts. Older months are left to
 * `runPremiumPool` on demand (decision 0046), so a run never walks the whole history.
 */
export const PREMIUM_POOL_CATCH_UP_MONTHS = 24

/**
 * The closed months a run settles, oldest first: those of the last PREMIUM_POOL_CATCH_UP_MONTHS before the month of
 * `now` (never the month still open), from the first with Premium revenue or watch time, that are not recorded in
 * every currency. A month recorded in one currency is looked at again for the other (a run that failed between
 * them, money in it that came later); recording is per month and currency, once, so that records nothing twice.
 */
export async function unsettledPoolMonths(db: DB, now: Date): Promise<string[]> {
  const [firstRevenue, firstWatch] = await Promise.all([firstPremiumRevenueAt(db), firstPremiumWatchMonth(db)])
  const firsts = [firstRevenue ? monthOf(firstRevenue) : null, firstWatch].filter((m): m is string => m !== null)
  if (!firsts.length) return []
  const first = firsts.sort()[0]!
  const closed = lastMonths(now, PREMIUM_POOL_CATCH_UP_MONTHS + 1)
    .slice(0, -1)
    .filter((month) => month >= first)
  if (!closed.length) return []
  const recorded = await recordedPoolMonths(db, closed[0]!)
  return closed.filter((month) => CURRENCIES.some((currency) => !recorded.get(month)?.has(currency)))
}

/**
 * The job's run: every closed month not settled yet (unsettledPoolMonths), oldest first, each as `runPremiumPool`
 * computes it. A run on the 1st that was missed (the server down, a redeploy: the schedule does not run again) is
 * caught up by the next one, with this run's basis points.
 */
export async function runDuePremiumPools(
  db: DB,
  options: { now: Date; basisPoints: number },
): Promise<{ months: string[]; outcomes: PoolOutcome[] }> {
  const months = await unsettledPoolMonths(db, options.now)
  const outcomes: PoolOutcome[] = []
  for (const month of months) {
    outcomes.push(...(await runPremiumPool(db, { month, basisPoints: options.basisPoints })))
  }
  return { months, outcomes }
}

/**
 * The creator-owned courses Premium members watched in the month, with their seconds. Minutes are recorded only
 * while a course is in Premium (a member opens it through Premium only then), so a course never included has none;
 * a house course (no owner, or an owner whose account was erased) is left out of the split.
 */
async function watchedCreatorCourses(db: DB, month: string): Promise<WatchedCourse[]> {
  const watched = await premiumWatchByCourse(db, month)
  const courseIds = watched.map((row) => row.courseId)
  const [facts, instructors] = await Promise.all([premiumCourseFacts(db, courseIds), courseShares(db, courseIds)])
  const owners = [...facts.values()].flatMap((course) => (course.ownerId ? [course.ownerId] : []))
  // A course whose owner's account was erased is the house's, like a course with no owner.
  const erased = await erasedAmong(db, [...new Set(owners)])
  return watched.flatMap((row) => {
    const course = facts.get(row.courseId)
    if (!course?.ownerId || erased.has(course.ownerId)) return []
    return [
      {
        courseId: row.courseId,
        creatorId: course.ownerId,
        title: course.title,
        seconds: row.seconds,
        // Co-instructors share the pool as they share sales: by the owner's percentages in force at the run.
        recipients: recipientsOf(instructors.get(row.courseId), course.ownerId),
      },
    ]
  })
}

export async function runPremiumPool(db: DB, options: { month: string; basisPoints: number }): Promise<PoolOutcome[]> {
  const { start, end } = monthBounds(options.month)
  const [revenue, courses] = await Promise.all([
    premiumRevenueOfMonth(db, start, end),
    watchedCreatorCourses(db, options.month),
  ])
  const outcomes: PoolOutcome[] = []
  for (const currency of CURRENCIES as readonly Currency[]) {
    const month = revenue.find((row) => row.currency === currency)
    // A currency with no Premium money in the month has no pool to record.
    if (!month) continue
    outcomes.push(
      await db.transaction().execute((trx) =>
        recordPoolMonth(trx, {
          month: options.month,
          currency,
          revenueMinor: month.revenueMinor,
          refundedMinor: month.refundedMinor,
          basisPoints: options.basisPoints,
          courses,
        }),
      ),
    )
  }
  return outcomes
}
