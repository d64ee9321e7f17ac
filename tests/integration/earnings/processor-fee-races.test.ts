// Stripe's fee being taken from a share while the same line is refunded, on PostgreSQL (decision 0047): both lock
// the line's share row, so whichever runs second sees the first — the fee is taken and the refund gives back what was
// left, or the refund gives back the whole share and the platform carries the fee. Without the lock both read the
// share as it was at the sale: the refund takes back the whole share and the fee is taken from the creator as well,
// so the creator ends owing the fee on a sale they never kept (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { takeProcessorFees } from '../../../src-server/earnings/processor-fees.ts'
import { recordSale, reverseShares } from '../../../src-server/earnings/shares.ts'
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

raceIt('a refund and the processor fee of the same line never both take from the creator', async () => {
  const course = await db().selectFrom('courses').select('id').executeTakeFirstOrThrow()
  for (let round = 0; round < 3; round++) {
    const creator = await createUser(db())
    const buyer = await createUser(db())
    const orderId = await placeOrder(db(), {
      userId: buyer.id,
      courseId: course.id,
      reference: `FEE-RACE-${round}`,
      status: 'paid',
    })
    const item = await db()
      .selectFrom('order_items')
      .select('id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    const paidAt = new Date()
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
          processorFeeDue: true,
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
          db()
            .transaction()
            .execute((trx) => takeProcessorFees(trx, orderId, new Map([[item.id, 320]]), 'race')),
        ]),
      { waiters: 2 },
    )
    const [usd] = await creatorBalances(db(), creator.id)
    expect(usd).toMatchObject({ pendingMinor: 0, availableMinor: 0, paidOutMinor: 0 })
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  }
})
