// A review sent while its author's refund is committing (PostgreSQL). The refund revokes the grant and flags the
// author's review in its transaction (access/holder-effects.ts), with the course row locked; a review that checked
// the author's access before that commit and inserted after it would count on the course's rating although its
// author no longer holds the course. The check must be made again under the course's lock.
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { revoke } from '../../../src-server/access/ledger.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs } from '../../support/factories.ts'
import { verifiedLearner } from '../../support/learners.ts'
import { refusalOf } from '../../support/outcome.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

describe('a review and its author’s refund at once', () => {
  raceIt('the review is refused, and the course’s rating never counts it', async () => {
    const courseId = 'nodejs-api-development'
    const author = await verifiedLearner(db(), courseId)
    const { order_id: orderId } = await db()
      .selectFrom('access_grants')
      .select('order_id')
      .where('user_id', '=', author.id)
      .where('course_id', '=', courseId)
      .executeTakeFirstOrThrow()
    const before = await db()
      .selectFrom('courses')
      .select('review_count')
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow()
    const caller = await callerAs(db(), author)

    // The refund's ledger step holds the course row until it commits; the review starts meanwhile.
    const outcome = await whileHeld(
      db(),
      (trx) => revoke(trx, { orderId: orderId as string }, 'refund'),
      () => refusalOf(caller.reviews.create({ courseId, rating: 1, body: 'Sent as the refund went through' })),
      { waiters: 1 },
    )

    const counted = await db()
      .selectFrom('course_reviews')
      .select('id')
      .where('user_id', '=', author.id)
      .where('course_id', '=', courseId)
      .where('access_revoked', '=', false)
      .execute()
    expect(counted).toEqual([])
    expect(outcome).toMatch(/^FORBIDDEN/)
    const after = await db()
      .selectFrom('courses')
      .select('review_count')
      .where('id', '=', courseId)
      .executeTakeFirstOrThrow()
    expect(after.review_count).toBe(before.review_count)
  })
})
