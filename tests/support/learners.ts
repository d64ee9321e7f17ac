// Verified learners for the review tests: a buyer (support/learning.ts buys as the shop does) who completed one
// of the course's lessons. Shared by integration and e2e tests.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createUser, type TestUser } from './factories.ts'
import { buyerOfCourse, lessonsOf } from './learning.ts'

/** Marks the course's first lesson complete for the user (or only opens it, with `completed: false`). */
export async function recordLessonProgress(db: Kysely<Database>, userId: string, courseId: string, completed = true) {
  const [lesson] = await lessonsOf(db, courseId)
  if (!lesson) throw new Error(`${courseId} has no lessons`)
  await db
    .insertInto('lesson_progress')
    .values({ user_id: userId, course_id: courseId, lesson_id: lesson.id, completed_at: completed ? new Date() : null })
    .onConflict((oc) => oc.columns(['user_id', 'lesson_id']).doNothing())
    .execute()
}

/** A new user who bought the course and completed a lesson of it: may review it. */
export async function verifiedLearner(
  db: Kysely<Database>,
  courseId: string,
  names: { firstName?: string; lastName?: string } = {},
): Promise<TestUser> {
  const user = await createUser(db, names)
  await buyerOfCourse(db, courseId, user)
  await recordLessonProgress(db, user.id, courseId)
  return user
}
