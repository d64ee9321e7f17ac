// When a dripped lesson opens for one learner (issue 33): the section's rule (catalog/drip.ts) applied to the day the
// learner's access began (access/). Staff never wait; editors preview everything (lesson-access.ts); previews are
// never dripped. Computed on every ask, so a changed schedule moves every pending unlock with it.
import type { AccessSource } from '../../db/types.ts'
import { accessBeganAt } from '../access/courses.ts'
import { type DripRule, dripOfLesson, readDripSchedule, unlockDate } from '../catalog/drip.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

async function beganFor(db: DB, userId: string, courseId: string, source: AccessSource, now: Date) {
  return (await accessBeganAt(db, userId, courseId, source === 'premium' ? 'premium' : 'course', now)) ?? now
}

/** When the lesson opens for this learner, if that is still ahead; null: it is open. */
export async function lessonLockedUntil(
  db: DB,
  userId: string,
  courseId: string,
  lessonId: string,
  source: AccessSource,
  now = clock.now(),
): Promise<Date | null> {
  if (source === 'staff') return null
  const rule = await dripOfLesson(db, lessonId)
  if (!rule) return null
  const opens = unlockDate(rule, await beganFor(db, userId, courseId, source, now))
  return opens > now ? opens : null
}

/** Every scheduled section of the course still closed to this learner: section id → when it opens. */
export async function sectionsLockedUntil(
  db: DB,
  userId: string,
  courseId: string,
  source: AccessSource,
  now = clock.now(),
): Promise<Map<string, Date>> {
  if (source === 'staff') return new Map()
  const schedule: Map<string, DripRule> = await readDripSchedule(db, courseId)
  if (schedule.size === 0) return new Map()
  const began = await beganFor(db, userId, courseId, source, now)
  const locked = new Map<string, Date>()
  for (const [sectionId, rule] of schedule) {
    const opens = unlockDate(rule, began)
    if (opens > now) locked.set(sectionId, opens)
  }
  return locked
}
