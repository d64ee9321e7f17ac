// Analytics for a creator (their courses only; Basic sees revenue and students, Pro and Enterprise everything) and
// for staff (the whole shop). The plan comes from the creator's standing; a course's lessons only to its team.
import { isCreatorPlanId } from '../../src-shared/creator-plans.ts'
import type { AnalyticsRange } from '../../src-shared/schemas/analytics.ts'
import { feedbackReport } from '../analytics/feedback-reads.ts'
import { funnelReport, learnersReport, lessonsReport, salesReport } from '../analytics/reads.ts'
import type { Scope } from '../analytics/sales.ts'
import { staffPanels } from '../analytics/staff.ts'
import { assertCourseRole } from '../creators/course-team.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { creatorStanding } from './creator-standing.ts'

/** Pro and Enterprise see every chart; Basic (or a lapsed plan) revenue and students. */
export const hasFullAnalytics = (planId: string | null) => isCreatorPlanId(planId) && planId !== 'basic'

async function report(db: DB, scope: Scope, range: AnalyticsRange, full: boolean) {
  const sales = await salesReport(db, scope, range)
  const [funnel, learners, feedback] = await Promise.all([
    full ? funnelReport(db, scope, range, sales.unitsByPeriod) : null,
    learnersReport(db, scope),
    full ? feedbackReport(db, scope, range) : null,
  ])
  return {
    range: { from: range.from, to: range.to, granularity: range.granularity },
    full,
    periods: sales.periods,
    revenue: sales.revenue,
    courses: sales.courses,
    units: { total: sales.revenue.reduce((sum, line) => sum + line.totals.units, 0), previous: sales.previousUnits },
    channels: full ? sales.channels : null,
    funnel,
    ratings: feedback?.ratings ?? null,
    refundReasons: feedback?.refundReasons ?? null,
    learners: learners.map((row) =>
      full ? row : { ...row, p25: null, p50: null, p75: null, completed: null as number | null },
    ),
  }
}

export type AnalyticsReport = Awaited<ReturnType<typeof report>>

export async function creatorAnalytics(db: DB, userId: string, range: AnalyticsRange) {
  const standing = await creatorStanding(db, userId)
  const full = hasFullAnalytics(standing.planId)
  return { plan: standing.planId, ...(await report(db, { kind: 'instructor', userId }, range, full)) }
}

/** The shop's report and the staff-only panels: plans, services, creators. */
export async function shopAnalytics(db: DB, range: AnalyticsRange) {
  const [shop, staff] = await Promise.all([report(db, { kind: 'shop' }, range, true), staffPanels(db, range)])
  return { ...shop, staff }
}

/** A course's lessons: its team only (another's course is not found), on a plan with full analytics. */
export async function creatorLessonAnalytics(db: DB, userId: string, courseId: string) {
  await assertCourseRole(db, userId, courseId)
  const standing = await creatorStanding(db, userId)
  if (!hasFullAnalytics(standing.planId)) {
    throw new DomainError('forbidden', 'Lesson analytics come with the Pro and Enterprise plans')
  }
  return lessonsReport(db, courseId)
}

export const staffLessonAnalytics = (db: DB, courseId: string) => lessonsReport(db, courseId)
