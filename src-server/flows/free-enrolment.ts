// Enrol for free: a published course priced 0 is taken at once, without a cart or an order. The ledger records the
// right with the source 'free_enrolment' (one per user and course, so a second click changes nothing) and the course
// leaves the cart if it was there.
import { grant } from '../access/ledger.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { takeOutOfCart } from './cart-order.ts'
import { emitEnrolmentGranted } from './webhook-events.ts'

export const FREE_ENROLMENT_MESSAGES = {
  notFound: 'Course not found',
  notFree: 'This course is not free',
  enrolled: 'You are enrolled',
} as const

export async function enrolForFree(db: DB, userId: string, courseId: string) {
  return inTransaction(db, async (trx) => {
    const course = await trx
      .selectFrom('courses')
      .select(['id', 'title', 'price_minor'])
      .where('id', '=', courseId)
      .where('status', '=', 'published')
      .executeTakeFirst()
    if (!course) throw new DomainError('not_found', FREE_ENROLMENT_MESSAGES.notFound)
    if (course.price_minor !== 0) throw new DomainError('invalid', FREE_ENROLMENT_MESSAGES.notFree)
    const { id, created } = await grant(trx, {
      userId,
      right: { kind: 'course', courseId: course.id },
      source: { kind: 'free_enrolment' },
    })
    if (created) await emitEnrolmentGranted(trx, course.id, { id, source: 'free_enrolment' }, { learnerId: userId })
    await takeOutOfCart(trx, userId, [`course:${course.id}`])
    return { courseId: course.id, title: course.title, created }
  })
}
