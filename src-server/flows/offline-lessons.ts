// Saving lessons for offline (issue 34): who may keep a course's lessons in their browser, and until when. Premium
// members may save the Premium courses they can open; buyers may save a course whose owner allows it; staff any.
// The browser keeps a saved lesson only until `validUntil` and asks again at its next start online, so a member whose
// Premium or purchase ended loses the copies; online, the service worker asks before it plays one (public/sw.js,
// public/offline/records.js).

import type { Actor } from '../audit/repository.ts'
import { offlineForBuyersOf } from '../catalog/course-switches.ts'
import { findCourseForLearning } from '../catalog/repository-lessons.ts'
import { assertCourseRole } from '../creators/course-team.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { premiumLiveUntil } from '../subscriptions/premium.ts'
import { flipCourseSwitch } from './course-switches.ts'
import { type AccessUser, courseAccessSource, opensThroughPremium } from './lesson-access.ts'

/** How long a saved copy plays without the browser coming back online to ask again. */
export const OFFLINE_PASS_DAYS = 30
const DAY_MS = 86_400_000

export interface OfflinePass {
  courseId: string
  allowed: boolean
  /** Until when saved lessons of this course may play offline (ISO), when allowed. */
  validUntil: string | null
  /** Why not, in words for the learner, when refused. */
  reason: string | null
}

function refused(courseId: string, reason: string): OfflinePass {
  return { courseId, allowed: false, validUntil: null, reason }
}

export async function offlinePassFor(db: DB, user: AccessUser, courseId: string): Promise<OfflinePass> {
  const now = clock.now()
  const course = await findCourseForLearning(db, courseId)
  if (!user || !course) return refused(courseId, 'This course is not available to you.')
  const source = await courseAccessSource(db, user, course, now)
  const horizon = now.getTime() + OFFLINE_PASS_DAYS * DAY_MS
  if (source === 'staff') return { courseId, allowed: true, validUntil: new Date(horizon).toISOString(), reason: null }
  // A buyer who is also a member of a Premium course keeps the member's pass when buyers may not save it.
  const member =
    source === 'premium' ||
    (source === 'purchase' && !course.offlineForBuyers && (await opensThroughPremium(db, user, course, now)))
  if (member) {
    // A cancelled membership's grant ends at its period's end, but another live Premium grant (a gift, staff's) may
    // run longer: the copies stop playing when the last of them ends (decisions 0058, 0110), 30 days at most.
    const until = await premiumLiveUntil(db, user.id, now)
    const ends = until ? Math.min(until.getTime(), horizon) : horizon
    return { courseId, allowed: true, validUntil: new Date(ends).toISOString(), reason: null }
  }
  if (source === 'purchase') {
    if (course.offlineForBuyers) {
      return { courseId, allowed: true, validUntil: new Date(horizon).toISOString(), reason: null }
    }
    return refused(courseId, 'Saving lessons for offline is a Premium benefit for this course.')
  }
  return refused(courseId, 'You no longer hold this course, so its lessons cannot be kept offline.')
}

/** The passes of the courses a browser holds saved lessons of (asked at each start online). */
export function offlinePasses(db: DB, user: AccessUser, courseIds: readonly string[]) {
  return Promise.all([...new Set(courseIds)].map((courseId) => offlinePassFor(db, user, courseId)))
}

/** The studio's offline switch: the setting, and whether this editor may change it (the owner only). */
export async function offlineSetting(db: DB, userId: string, courseId: string) {
  const role = await assertCourseRole(db, userId, courseId)
  return { allowed: await offlineForBuyersOf(db, courseId), canChange: role === 'owner' }
}

/** The owner lets the course's buyers save its lessons for offline, or stops it (audited with the change). */
export async function changeOfflineSetting(db: DB, actor: Actor, courseId: string, allowed: boolean) {
  await flipCourseSwitch(db, actor, courseId, 'offline_for_buyers', allowed)
  return { allowed }
}
