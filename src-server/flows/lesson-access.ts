// Who may open a lesson: the one rule every procedure and media route asks. Built on the course rules
// (ownsCourse, isPremium): a preview lesson of a published course opens for anyone; the rest for staff, for buyers
// of the course, and for active Premium members when the course is included in Premium. Everyone else gets the
// lesson's title only.

import type { AccessSource, CourseStatus } from '../../db/types.ts'
import { isStaff, type Role } from '../../src-shared/roles.ts'
import { ownsCourse } from '../access/courses.ts'
import { courseRoleOf } from '../creators/course-team.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { isPremium } from '../subscriptions/premium.ts'
import { lessonLockedUntil } from './drip-access.ts'

export interface CourseForAccess {
  id: string
  status: CourseStatus
  includedInPremium: boolean
}
export type AccessUser = { id: string; role: Role } | null

/** The statuses of a course not yet put on sale, for queries that filter on them (live sessions' lists). */
export const NEVER_ON_SALE_STATUSES: readonly CourseStatus[] = ['draft', 'in_review', 'changes_requested']
const NEVER_ON_SALE = new Set<CourseStatus>(NEVER_ON_SALE_STATUSES)

/** A course not yet put on sale (draft, in review, changes requested): only staff and its editors know of it. */
export function neverOnSale(status: CourseStatus): boolean {
  return NEVER_ON_SALE.has(status)
}

/**
 * How the user holds the whole course: 'staff', 'purchase' (enrolled), 'premium', or null. A course never put on sale
 * (draft, in review, changes requested) opens only for staff; an archived or unpublished course keeps opening for
 * its buyers but no longer through Premium.
 */
export async function courseAccessSource(
  db: DB,
  user: AccessUser,
  course: CourseForAccess,
  now = clock.now(),
): Promise<AccessSource | null> {
  if (!user) return null
  if (isStaff(user.role)) return 'staff'
  if (neverOnSale(course.status)) return null
  if (await ownsCourse(db, user.id, course.id)) return 'purchase'
  if (await opensThroughPremium(db, user, course, now)) return 'premium'
  return null
}

/**
 * Whether Premium opens the course for the user now (a published course included in Premium, an active member),
 * whether or not they also bought it: a member's benefits must not end because the course is theirs as well.
 */
export async function opensThroughPremium(
  db: DB,
  user: { id: string },
  course: CourseForAccess,
  now = clock.now(),
): Promise<boolean> {
  return course.status === 'published' && course.includedInPremium && (await isPremium(db, user, now))
}

/**
 * Whether the user may open this lesson, and through which hold on the course (null for a preview, which needs
 * none): one lookup for callers that need both (a progress save credits Premium watching by it).
 */
export async function lessonAccess(
  db: DB,
  user: AccessUser,
  course: CourseForAccess,
  lesson: { id: string; isPreview: boolean },
  now = clock.now(),
): Promise<{ open: boolean; source: AccessSource | null }> {
  if (lesson.isPreview && course.status === 'published') return { open: true, source: null }
  const source = await courseAccessSource(db, user, course, now)
  if (source === null || user === null) return { open: false, source }
  // Drip (issue 33): a learner's lesson in a section not yet open is refused like a lesson not held.
  return { open: (await lessonLockedUntil(db, user.id, course, lesson.id, source, now)) === null, source }
}

/** May the user open this lesson (body, video, attachments)? A dripped lesson opens on its date (drip-access.ts). */
export async function canOpenLesson(...args: Parameters<typeof lessonAccess>): Promise<boolean> {
  return (await lessonAccess(...args)).open
}

/**
 * Whether the user edits this course in the studio (owner or co-instructor): they preview every lesson as a learner
 * sees it, in any state. Preview only: it is no access source, so it writes no progress, completion or certificate.
 */
export async function isCourseEditor(db: DB, user: AccessUser, courseId: string): Promise<boolean> {
  return user !== null && (await courseRoleOf(db, user.id, courseId)) !== null
}

/** May the user see this lesson's content: a learner who may open it, or an editor of the course previewing it. */
export async function canPreviewLesson(
  db: DB,
  user: AccessUser,
  course: CourseForAccess,
  lesson: { id: string; isPreview: boolean },
): Promise<boolean> {
  return (await canOpenLesson(db, user, course, lesson)) || (await isCourseEditor(db, user, course.id))
}
