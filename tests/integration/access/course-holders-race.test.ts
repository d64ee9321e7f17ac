// Two payments naming the same courses in opposite line orders, at the same moment (PostgreSQL only:
// tests/support/race.ts). Each course grant used to lock and recount its own course, line by line, so one payment held
// course A and waited for B while the other held B and waited for A (through catalog_version, which every course
// update moves): PostgreSQL broke the deadlock by failing one payment, and card webhooks answered 500 under load
// (npm run bench:sale). A payment's course grants now lock their courses together, in id order.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db
beforeAll(async () => {
  database = await createTestDatabase()
}, 180_000)
afterAll(() => database.close())

/** An order of the courses whose lines are read (and granted) in the order given: line ids chosen to sort so. */
async function orderOf(courses: { id: string; title: string; price_minor: number }[], idPrefix: string) {
  const buyer = await createUser(db())
  const orderId = await placeOrder(db(), {
    userId: buyer.id,
    courses,
    reference: `HOLD-${idPrefix}`,
    method: 'bank_transfer',
  })
  for (const [index, course] of courses.entries()) {
    await db()
      .updateTable('order_items')
      .set({ id: `${idPrefix}-0000-4000-8000-00000000000${index}` })
      .where('order_id', '=', orderId)
      .where('course_id', '=', course.id)
      .execute()
  }
  return orderId
}

describe('payments granting the same courses at once', () => {
  raceIt('both are paid and both learners are counted, whatever the order of their lines', async () => {
    const creator = await createUser(db())
    const first = await ownedCourse(db(), creator.id, 2000, 'Held Course A')
    const second = await ownedCourse(db(), creator.id, 3000, 'Held Course B')
    const forward = await orderOf([first, second], '00000000')
    const backward = await orderOf([second, first], '00000001')

    // The catalogue's change counter is held while both payments start, so each has locked its first course and
    // waits for the counter before either goes on to its second.
    const results = await whileHeld(
      db(),
      (trx) => sql`select 1 from catalog_version for update`.execute(trx),
      () =>
        Promise.allSettled([
          markPaid(db(), forward, { source: 'staff' }),
          markPaid(db(), backward, { source: 'staff' }),
        ]),
      { waiters: 2 },
    )

    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : String(result.reason)))).toEqual([
      'fulfilled',
      'fulfilled',
    ])
    const counts = await db()
      .selectFrom('courses')
      .select(['title', 'students_count'])
      .where('id', 'in', [first.id, second.id])
      .orderBy('title')
      .execute()
    expect(counts).toEqual([
      { title: 'Held Course A', students_count: 2 },
      { title: 'Held Course B', students_count: 2 },
    ])
  })
})
