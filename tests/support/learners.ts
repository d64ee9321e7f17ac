// Learners for review and learning tests: a user who bought a course (through the cart and a staff-confirmed
// order, as a bank transfer is paid) and who completed one of its lessons. Shared by integration and e2e tests.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { createFromCart } from '../../src-server/orders/create.ts'
import { markPaid } from '../../src-server/orders/pay.ts'
import { createUser, type TestUser } from './factories.ts'
import { shopCaller } from './shop.ts'

/** Buys the course for the user: cart, order, payment confirmed by staff (the buyer then holds it). */
export async function buyCourse(db: Kysely<Database>, user: TestUser, courseId: string) {
  const course = await db.selectFrom('courses').select('currency').where('id', '=', courseId).executeTakeFirstOrThrow()
  const caller = await shopCaller(db, user)
  await caller.cart.add({ kind: 'course', courseId })
  const order = await createFromCart(db, {
    userId: user.id,
    currency: course.currency as 'USD' | 'GBP',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  const result = await markPaid(db, order.id, { source: 'staff' })
  if (result !== 'fulfilled') throw new Error(`The order for ${courseId} was not fulfilled: ${result}`)
}

/** Marks the course's first lesson complete for the user (or only opens it, with `completed: false`). */
export async function recordLessonProgress(db: Kysely<Database>, userId: string, courseId: string, completed = true) {
  const lesson = await db
    .selectFrom('lessons')
    .select('id')
    .where('course_id', '=', courseId)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirstOrThrow()
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
  await buyCourse(db, user, courseId)
  await recordLessonProgress(db, user.id, courseId)
  return user
}
