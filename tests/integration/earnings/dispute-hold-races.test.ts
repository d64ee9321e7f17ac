// A dispute's hold and the refund window's release of the same share, on PostgreSQL (decision 0125): the release
// picks its due shares without a lock, then locks them and reads the hold again under the lock, so a share a dispute
// held meanwhile is not released. Without that second read the release moves the held share to available, where the
// month's payout pays it while the dispute is open, and the hold's end then moves it to available a second time
// (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { endDisputeHold, holdSharesForDispute } from '../../../src-server/earnings/dispute-holds.ts'
import { isPosted } from '../../../src-server/earnings/ledger.ts'
import { recordSale, releaseDueHolds, releaseKey } from '../../../src-server/earnings/shares.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

raceIt('a dispute holding a share while the refund window releases it: the share stays held', async () => {
  const course = await db().selectFrom('courses').select('id').executeTakeFirstOrThrow()
  for (let round = 0; round < 3; round++) {
    const creator = await createUser(db())
    const buyer = await createUser(db())
    const orderId = await placeOrder(db(), {
      userId: buyer.id,
      courseId: course.id,
      reference: `HOLD-RACE-${round}`,
      status: 'paid',
    })
    const item = await db()
      .selectFrom('order_items')
      .select('id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    const paidAt = new Date(Date.now() - 40 * DAY)
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
    const disputeId = `dp_race_${round}_${orderId.slice(0, 8)}`
    await whileHeld(
      db(),
      (trx) => holdSharesForDispute(trx, orderId, disputeId),
      () => releaseDueHolds(db(), new Date()),
      { waiters: 1 },
    )
    expect(await isPosted(db(), releaseKey(item.id))).toBe(false)
    expect((await creatorBalances(db(), creator.id))[0]).toMatchObject({ pendingMinor: 9000, availableMinor: 0 })
    // The dispute is won: the share was never released, so it waits for the next release run.
    await db()
      .transaction()
      .execute((trx) => endDisputeHold(trx, disputeId))
    expect((await creatorBalances(db(), creator.id))[0]).toMatchObject({ pendingMinor: 9000, availableMinor: 0 })
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  }
})
