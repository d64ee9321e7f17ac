// A refund racing the hold's release on PostgreSQL (issue 31): both lock the line's share row, so whichever runs
// second sees the first — the share is either reversed from pending (and never released) or released then taken back
// from available. Without the lock both read "neither happened": pending loses the share twice and available gains
// it, so a refunded sale would be paid out (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { creatorBalances } from '../../../src-server/earnings/balances.ts'
import { releaseDueHolds, reverseShares } from '../../../src-server/earnings/shares.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { recordedSale } from '../../support/earnings.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

raceIt('a refund and the hold release of the same line never both count', async () => {
  for (let round = 0; round < 3; round++) {
    const sale = await recordedSale(db(), { reference: `RACE-${round}`, paidAt: new Date(Date.now() - 31 * DAY) })
    await whileRowHeld(
      db(),
      'earning_shares',
      { order_item_id: sale.itemId },
      () =>
        Promise.all([
          db()
            .transaction()
            .execute((trx) => reverseShares(trx, [sale.itemId], 'refund', 'race')),
          releaseDueHolds(db(), new Date()),
        ]),
      { waiters: 2 },
    )
    const [usd] = await creatorBalances(db(), sale.creatorId)
    expect(usd).toMatchObject({ pendingMinor: 0, availableMinor: 0, paidOutMinor: 0 })
  }
})
