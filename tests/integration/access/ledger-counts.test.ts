// What follows a change of the access ledger, in the same transaction: the course's students_count (learners with a
// course grant that is not revoked — purchases, free enrolments, staff grants — never more than the rows behind it,
// also under concurrent purchases) and the visibility of the learners' reviews (a refunded or disputed learner's
// review leaves the course page's list and the aggregate, and comes back when the access is restored).
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { grant, restore, revoke } from '../../../src-server/access/ledger.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { recordLessonProgress } from '../../support/learners.ts'
import { buyerOfCourse } from '../../support/learning.ts'

let database: DatabaseHandle
const db = () => database.db
const visitor = () => callerAs(db(), null)

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** A published course with one lesson, nobody holding it. */
async function freshCourse(id: string) {
  const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
  await insertCourse(db(), { id, title: `Course ${id}`, category_id: category.id, status: 'published' })
  const section = await db()
    .insertInto('course_sections')
    .values({ course_id: id, position: 0, title: 'Start' })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db()
    .insertInto('lessons')
    .values({ course_id: id, section_id: section.id, position: 0, title: 'Welcome' })
    .execute()
  return id
}

/** The shown number and the learners behind it (distinct holders of a course grant that is not revoked). */
async function students(courseId: string) {
  const shown = await db()
    .selectFrom('courses')
    .select('students_count')
    .where('id', '=', courseId)
    .executeTakeFirstOrThrow()
  const rows = await db()
    .selectFrom('access_grants')
    .select(sql<number>`count(distinct user_id)::int`.as('n'))
    .where('course_id', '=', courseId)
    .where('kind', '=', 'course')
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow()
  expect(shown.students_count).toBe(Number(rows.n))
  return shown.students_count
}

const admin = async () => {
  const user = await createUser(db(), { role: 'admin' })
  return { id: user.id, email: user.email }
}

describe('students_count', () => {
  it('grows with purchases, free enrolments and staff grants, counts a learner once, shrinks on revocation', async () => {
    const courseId = await freshCourse('students-count')
    expect(await students(courseId)).toBe(0)
    const first = await buyerOfCourse(db(), courseId)
    expect(await students(courseId)).toBe(1)
    // The same learner granted the course again by staff is still one student.
    const staffGrant = await grant(db(), {
      userId: first.user.id,
      right: { kind: 'course', courseId },
      source: { kind: 'staff' },
    })
    expect(await students(courseId)).toBe(1)
    const second = await buyerOfCourse(db(), courseId)
    const third = await createUser(db())
    await grant(db(), { userId: third.id, right: { kind: 'course', courseId }, source: { kind: 'free_enrolment' } })
    expect(await students(courseId)).toBe(3)

    // A refund takes the second buyer away; a repeated revocation changes nothing.
    await refundOrder(db(), { orderId: second.orderId, reference: 'BANK-1', actor: await admin() }, null)
    expect(await students(courseId)).toBe(2)
    expect(await revoke(db(), { orderId: second.orderId }, 'refund')).toBe(0)
    expect(await students(courseId)).toBe(2)

    // The first learner holds it twice: losing the purchase keeps them a student, losing both does not.
    await revoke(db(), { orderId: first.orderId }, 'dispute')
    expect(await students(courseId)).toBe(2)
    await revoke(db(), { grantId: staffGrant.id }, 'expiry')
    expect(await students(courseId)).toBe(1)
    // A won dispute gives the purchase back.
    expect(await restore(db(), { orderId: first.orderId }, { reason: 'dispute' })).toBe(1)
    expect(await students(courseId)).toBe(2)
  })

  it('counts every one of concurrent purchases (run on PostgreSQL to race for real)', async () => {
    const courseId = await freshCourse('students-count-race')
    await Promise.all(Array.from({ length: 12 }, () => buyerOfCourse(db(), courseId)))
    expect(await students(courseId)).toBe(12)
    // And concurrent refunds.
    const orders = await db()
      .selectFrom('access_grants')
      .select('order_id')
      .where('course_id', '=', courseId)
      .limit(5)
      .execute()
    await Promise.all(orders.map((row) => revoke(db(), { orderId: row.order_id! }, 'refund')))
    expect(await students(courseId)).toBe(7)
  })
})

describe('reviews of a learner who lost the course', () => {
  it('leave the list and the aggregate when the access is revoked, and come back when it is restored', async () => {
    const courseId = await freshCourse('review-after-refund')
    const reviewer = async (rating: number) => {
      const bought = await buyerOfCourse(db(), courseId)
      await recordLessonProgress(db(), bought.user.id, courseId)
      const review = await (await callerAs(db(), bought.user)).reviews.create({ courseId, rating, body: `${rating}` })
      return { ...bought, review }
    }
    const refunded = await reviewer(1)
    const disputed = await reviewer(2)
    await reviewer(5)
    const shown = async () => {
      const anyone = await visitor()
      const [list, summary, page] = await Promise.all([
        anyone.reviews.list({ courseId }),
        anyone.reviews.summary({ courseId }),
        anyone.catalog.course({ id: courseId }),
      ])
      expect(page).toMatchObject({ rating: summary.average, reviewCount: summary.count })
      expect(list.total).toBe(summary.count)
      return { ratings: list.items.map((item) => item.rating).sort(), average: summary.average }
    }
    expect(await shown()).toEqual({ ratings: [1, 2, 5], average: 2.7 })

    await refundOrder(db(), { orderId: refunded.orderId, reference: 'BANK-2', actor: await admin() }, null)
    expect(await shown()).toEqual({ ratings: [2, 5], average: 3.5 })
    await revoke(db(), { orderId: disputed.orderId }, 'dispute')
    expect(await shown()).toEqual({ ratings: [5], average: 5 })
    // The author still sees their own review (and may no longer write one).
    const mine = await (await callerAs(db(), disputed.user)).reviews.mine({ courseId })
    expect(mine).toMatchObject({ blocker: 'no_access', review: { id: disputed.review.id } })

    // The dispute is won: that review is back; the refund stays.
    await restore(db(), { orderId: disputed.orderId }, { reason: 'dispute' })
    expect(await shown()).toEqual({ ratings: [2, 5], average: 3.5 })
    // Given the course again by staff, the refunded learner's review is back too.
    await grant(db(), { userId: refunded.user.id, right: { kind: 'course', courseId }, source: { kind: 'staff' } })
    expect(await shown()).toEqual({ ratings: [1, 2, 5], average: 2.7 })
  })
})
