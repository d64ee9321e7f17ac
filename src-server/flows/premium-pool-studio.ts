// The Premium pool in the studio: a course's owner includes it in Premium (it then opens to Premium members and earns
// a share of the monthly pool by minutes watched) or takes it out; co-instructors see the state. A creator's Earnings
// page shows each course's minutes watched by Premium members and pool share per month, and this month's minutes
// so far. Only the creator's own courses and shares.
import type { Actor } from '../audit/repository.ts'
import { ownedPremiumCourses, premiumCourseFacts } from '../catalog/premium-courses.ts'
import { assertCourseRole } from '../creators/course-team.ts'
import { creatorPoolShares } from '../earnings/premium-pool.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { premiumWatchOfCourses, watchMonthOf } from '../learning/watch-time.ts'
import { flipCourseSwitch } from './course-switches.ts'

/** Whether the course is in Premium, and whether this editor may change it (its owner only). */
export async function premiumInclusion(db: DB, userId: string, courseId: string) {
  const role = await assertCourseRole(db, userId, courseId)
  const course = (await premiumCourseFacts(db, [courseId])).get(courseId)
  return { included: course?.included ?? false, canChange: role === 'owner' }
}

/** The owner includes the course in Premium or takes it out (audited with the change). */
export async function setPremiumInclusion(db: DB, actor: Actor, courseId: string, included: boolean) {
  await flipCourseSwitch(db, actor, courseId, 'included_in_premium', included)
  return { included }
}

const minutesOf = (seconds: number) => Math.round(seconds / 60)

/** The creator's Premium pool: per month and course, minutes watched and the share; this month's minutes so far. */
export async function creatorPremiumPool(db: DB, creatorId: string, now = clock.now()) {
  const [shares, included] = await Promise.all([creatorPoolShares(db, creatorId), ownedPremiumCourses(db, creatorId)])
  const thisMonth = watchMonthOf(now)
  const [titles, running] = await Promise.all([
    premiumCourseFacts(db, [...new Set(shares.map((share) => share.courseId))]),
    premiumWatchOfCourses(
      db,
      thisMonth,
      included.map((course) => course.id),
    ),
  ])
  return {
    month: thisMonth,
    /** Courses in Premium now, with the minutes Premium members watched this month so far. */
    current: included.map((course) => ({
      courseId: course.id,
      title: course.title,
      minutesWatched: minutesOf(running.get(course.id) ?? 0),
    })),
    /** Computed months, newest first: each course's minutes and share (a share is credited as available). */
    shares: shares.map((share) => ({
      month: share.month,
      currency: share.currency,
      courseId: share.courseId,
      title: titles.get(share.courseId)?.title ?? share.courseId,
      minutesWatched: minutesOf(share.watchedSeconds),
      shareMinor: share.shareMinor,
    })),
  }
}
