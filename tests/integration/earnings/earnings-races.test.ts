// A refund racing the hold's release on PostgreSQL (issue 31): both lock the line's share row, so whichever runs
// second sees the first — the share is either reversed from pending (and never released) or released then taken back
// from available. Without the lock both read "neither happened": pending loses the share twice and available gains
// it, so a refunded sale would be paid out (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { creatorBalances } from '../../../src-server/earnings/balances.ts'
import { recordSale, releaseDueHolds, reverseShares } from '../../../src-server/earnings/shares.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

raceIt('a refund and the hold release of the same line never both count', async () => {
  const course = await db().selectFrom('courses').select('id').executeTakeFirstOrThrow()
  for (let round = 0; round < 3; round++) {
    const creator = await createUser(db())
    const buyer = await createUser(db())
    const orderId = await placeOrder(db(), {
      userId: buyer.id,
      courseId: course.id,
      reference: `RACE-${round}`,
      status: 'paid',
    })
    const item = await db()
      .selectFrom('order_items')
      .select('id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    const paidAt = new Date(Date.now() - 31 * DAY)
    await db()
      .transaction()
      .execute((trx) =>
        recordSale(trx, {
          orderItemId: item.id,
          orderId,
          courseId: course.id,
          creatorId: creator.id,
          currency: 'USD',
          netMinor: 10_000,
          feeBasisPoints: 1000,
          planId: null,
          paidAt,
          holdUntil: new Date(paidAt.getTime() + 30 * DAY),
        }),
      )
    await whileRowHeld(
      db(),
      'earning_shares',
      { order_item_id: item.id },
      () =>
        Promise.all([
          db()
            .transaction()
            .execute((trx) => reverseShares(trx, [item.id], 'refund', 'race')),
          releaseDueHolds(db(), new Date()),
        ]),
      { waiters: 2 },
    )
    const [usd] = await creatorBalances(db(), creator.id)
    expect(usd).toMatchObject({ pendingMinor: 0, availableMinor: 0, paidOutMinor: 0 })
  }
})
