// A dispute's hold and the refund window's release of the same share, on PostgreSQL (decision 0125): the release
// picks its due shares without a lock, then locks them and reads the hold again under the lock, so a share a dispute
// held meanwhile is not released. Without that second read the release moves the held share to available, where the
// month's payout pays it while the dispute is open, and the hold's end then moves it to available a second time
// (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { endDisputeHold, holdSharesForDispute } from '../../../src-server/earnings/dispute-holds.ts'
import { isPosted } from '../../../src-server/earnings/ledger.ts'
import { releaseDueHolds, releaseKey } from '../../../src-server/earnings/shares.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { recordedSale } from '../../support/earnings.ts'
import { raceIt, whileHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

raceIt('a dispute holding a share while the refund window releases it: the share stays held', async () => {
  for (let round = 0; round < 3; round++) {
    const sale = await recordedSale(db(), { reference: `HOLD-RACE-${round}`, paidAt: new Date(Date.now() - 40 * DAY) })
    const disputeId = `dp_race_${round}_${sale.orderId.slice(0, 8)}`
    await whileHeld(
      db(),
      (trx) => holdSharesForDispute(trx, sale.orderId, disputeId),
      () => releaseDueHolds(db(), new Date()),
      { waiters: 1 },
    )
    expect(await isPosted(db(), releaseKey(sale.itemId))).toBe(false)
    expect((await creatorBalances(db(), sale.creatorId))[0]).toMatchObject({ pendingMinor: 9000, availableMinor: 0 })
    // The dispute is won: the share was never released, so it waits for the next release run.
    await db()
      .transaction()
      .execute((trx) => endDisputeHold(trx, disputeId))
    expect((await creatorBalances(db(), sale.creatorId))[0]).toMatchObject({ pendingMinor: 9000, availableMinor: 0 })
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  }
})
