// Stripe's fee being taken from a share while the same line is refunded, on PostgreSQL (decision 0047): both lock
// the line's share row, so whichever runs second sees the first — the fee is taken and the refund gives back what was
// left, or the refund gives back the whole share and the platform carries the fee. Without the lock both read the
// share as it was at the sale: the refund takes back the whole share and the fee is taken from the creator as well,
// so the creator ends owing the fee on a sale they never kept (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { takeProcessorFees } from '../../../src-server/earnings/processor-fees.ts'
import { reverseShares } from '../../../src-server/earnings/shares.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { recordedSale } from '../../support/earnings.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

raceIt('a refund and the processor fee of the same line never both take from the creator', async () => {
  for (let round = 0; round < 3; round++) {
    const sale = await recordedSale(db(), { reference: `FEE-RACE-${round}`, paidAt: new Date(), processorFeeDue: true })
    await whileRowHeld(
      db(),
      'earning_shares',
      { order_item_id: sale.itemId },
      () =>
        Promise.all([
          db()
            .transaction()
            .execute((trx) => reverseShares(trx, [sale.itemId], 'refund', 'race')),
          db()
            .transaction()
            .execute((trx) => takeProcessorFees(trx, sale.orderId, new Map([[sale.itemId, 320]]), 'race')),
        ]),
      { waiters: 2 },
    )
    const [usd] = await creatorBalances(db(), sale.creatorId)
    expect(usd).toMatchObject({ pendingMinor: 0, availableMinor: 0, paidOutMinor: 0 })
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  }
})
