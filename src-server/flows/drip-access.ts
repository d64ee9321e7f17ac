// When a dripped lesson opens for one learner (issue 33): the section's rule (catalog/drip.ts) applied to the day the
// learner's access began (access/). Staff never wait; editors preview everything (lesson-access.ts); previews are
// never dripped. Computed on every ask, so a changed schedule moves every pending unlock with it.
import type { AccessSource, CourseStatus } from '../../db/types.ts'
import { accessBeganAt } from '../access/courses.ts'
import { type DripRule, dripOfLesson, readDripSchedule, unlockDate } from '../catalog/drip.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

/** What the drip needs of the course: whether Premium opens it too (courseAccessSource's rule). */
export interface DrippedCourse {
  id: string
  status: CourseStatus
  includedInPremium: boolean
}

/**
 * The day this learner's drip counts from, for a hold of the given source: the access check's rule, which the
 * "section open" mail (drip-unlocks.ts) reuses so it never announces a section on another date than the lesson opened.
 */
export async function dripCountsFrom(
  db: DB,
  userId: string,
  course: DrippedCourse,
  source: AccessSource,
  now = clock.now(),
): Promise<Date> {
  const began = await accessBeganAt(db, userId, course.id, source === 'premium' ? 'premium' : 'course', now)
  // A buyer who is also a member of a course in Premium holds it both ways: the earlier hold counts, so buying a
  // course never closes again a section Premium had opened (a Premium grant in force means an active member).
  const member =
    source === 'purchase' && course.status === 'published' && course.includedInPremium
      ? await accessBeganAt(db, userId, course.id, 'premium', now)
      : undefined
  if (began && member) return began < member ? began : member
  return began ?? member ?? now
}

/** When the lesson opens for this learner, if that is still ahead; null: it is open. */
export async function lessonLockedUntil(
  db: DB,
  userId: string,
  course: DrippedCourse,
  lessonId: string,
  source: AccessSource,
  now = clock.now(),
): Promise<Date | null> {
  if (source === 'staff') return null
  const rule = await dripOfLesson(db, lessonId)
  if (!rule) return null
  const opens = unlockDate(rule, await dripCountsFrom(db, userId, course, source, now))
  return opens > now ? opens : null
}

/** Every scheduled section of the course still closed to this learner: section id → when it opens. */
export async function sectionsLockedUntil(
  db: DB,
  userId: string,
  course: DrippedCourse,
  source: AccessSource,
  now = clock.now(),
): Promise<Map<string, Date>> {
  if (source === 'staff') return new Map()
  const schedule: Map<string, DripRule> = await readDripSchedule(db, course.id)
  if (schedule.size === 0) return new Map()
  const began = await dripCountsFrom(db, userId, course, source, now)
  const locked = new Map<string, Date>()
  for (const [sectionId, rule] of schedule) {
    const opens = unlockDate(rule, began)
    if (opens > now) locked.set(sectionId, opens)
  }
  return locked
}
