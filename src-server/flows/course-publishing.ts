// The owner's hand on a course's sale: unpublish (hidden from the catalogue, search and sitemap; buyers keep it),
// republish (needs a publishing slot; edits waiting for review go through review first), and delete (only while
// nobody holds it; its lessons' video bytes go back to the plan).

import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import { deleteCourseRow, hasPendingChanges, moveCourseStatus, pendingSubmission } from '../catalog/course-review.ts'
import { assertCourseRole, ownedCourses } from '../creators/course-team.ts'
import { releaseLessonUploads } from '../creators/uploads.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

type Log = { warn: (details: object, message: string) => void }

import type { FileStorage } from '../storage/storage.ts'
import { courseHasPurchases } from './course-purchases.ts'
import { closePendingSubmission } from './course-review.ts'
import { assertPublishingSlot, creatorStanding, lockPublishingSlots } from './creator-standing.ts'

export const HELD_COURSE_MESSAGE = 'Learners hold this course, so it cannot be deleted: unpublish it instead'

export async function unpublishCourse(db: DB, userId: string, courseId: string, now = clock.now()) {
  await assertCourseRole(db, userId, courseId, 'owner')
  await db.transaction().execute(async (trx) => {
    if (!(await moveCourseStatus(trx, courseId, ['published'], 'unpublished', now))) {
      throw new DomainError('conflict', 'Only a published course can be unpublished')
    }
    // A revision waiting for review goes with it: republishing with edits is a new review.
    await withdrawPending(trx, courseId, userId, now)
  })
  return { status: 'unpublished' as const }
}

async function withdrawPending(trx: DB, courseId: string, by: string, now: Date) {
  const pending = await pendingSubmission(trx, courseId)
  if (pending) await closePendingSubmission(trx, pending.id, courseId, by, now)
}

/**
 * Takes every course the person owns off sale, their account being erased (decision 0053): a published course is
 * unpublished (its buyers keep it; nobody can buy it any more, as the house cannot pay an erased account) and a
 * submission waiting for review is withdrawn, so staff never publish it.
 */
export async function retireOwnedCourses(trx: DB, ownerId: string, now: Date) {
  for (const { course_id: courseId } of await ownedCourses(trx, ownerId).execute()) {
    await moveCourseStatus(trx, courseId, ['published'], 'unpublished', now)
    await withdrawPending(trx, courseId, ownerId, now)
  }
}

export async function republishCourse(
  db: DB,
  userId: string,
  courseId: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
) {
  await assertCourseRole(db, userId, courseId, 'owner')
  if (await hasPendingChanges(db, courseId)) {
    throw new DomainError('precondition', 'This course has edits waiting for review: submit it for review instead')
  }
  // The slot check and the move commit together under the owner's slot lock: two republishes at once would
  // otherwise both see the last free slot.
  await db.transaction().execute(async (trx) => {
    await lockPublishingSlots(trx, userId)
    assertPublishingSlot(await creatorStanding(trx, userId, overrides, now))
    if (!(await moveCourseStatus(trx, courseId, ['unpublished'], 'published', now))) {
      throw new DomainError('conflict', 'Only an unpublished course can be republished')
    }
  })
  return { status: 'published' as const }
}

export async function deleteOwnCourse(
  db: DB,
  userId: string,
  courseId: string,
  storage?: Pick<FileStorage, 'remove'>,
  log?: Log,
) {
  await assertCourseRole(db, userId, courseId, 'owner')
  if (await courseHasPurchases(db, courseId)) throw new DomainError('conflict', HELD_COURSE_MESSAGE)
  const keys = await db.transaction().execute(async (trx) => {
    const lessonIds = await trx.selectFrom('lessons').select('id').where('course_id', '=', courseId).execute()
    const released = await releaseLessonUploads(
      trx,
      lessonIds.map((lesson) => lesson.id),
    )
    await deleteCourseRow(trx, courseId)
    return released
  })
  // The files go after the commit: a failed removal leaves a file the storage sweep finds, never a broken lesson.
  for (const key of keys) {
    await storage?.remove(key).catch((error: unknown) => log?.warn({ err: error, key }, 'lesson video not removed'))
  }
  return { deleted: true }
}
