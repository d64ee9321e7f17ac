// Two payout runs fitting the same creator's unsent payout to a balance a dispute lowered, on PostgreSQL (decision
// 0127): each locks the payout and reads the balance again under the lock, so the difference is taken from it once.
// With the balance the run read before the lock, both take it, and the creator is paid the disputed share too little
// a second time (docs/concurrency-proofs.md).
import { afterAll, beforeAll, expect } from 'vitest'
import { holdSharesForDispute } from '../../../src-server/earnings/dispute-holds.ts'
import { fitPayoutsToBalance, openPayout, payoutBalances } from '../../../src-server/earnings/payouts.ts'
import { releaseAllDueHolds } from '../../../src-server/flows/creator-earnings.ts'
import { PAYOUT_MAX_ATTEMPTS } from '../../../src-server/flows/creator-payouts.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { createUser } from '../../support/factories.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'

let database: TestDatabase
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

const shareOf = async (orderId: string) =>
  (
    await db()
      .selectFrom('earning_shares')
      .select('creator_minor')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
  ).creator_minor

raceIt('two runs lower a payout the dispute over-claims once, not twice', async () => {
  for (let round = 0; round < 3; round++) {
    const creator = await createUser(db())
    await db()
      .insertInto('creator_payout_accounts')
      .values({
        creator_id: creator.id,
        stripe_account_id: `acct_fit_${round}_${creator.id.slice(0, 8)}`,
        payouts_enabled: true,
        details_submitted: true,
      })
      .execute()
    const disputed = await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    const kept = await sell(db(), [await ownedCourse(db(), creator.id, 10_000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
    const mine = async () =>
      (await payoutBalances(db(), PAYOUT_MAX_ATTEMPTS)).find((balance) => balance.creatorId === creator.id)!
    await openPayout(db(), await mine(), '2031-01')
    await db()
      .transaction()
      .execute((trx) => holdSharesForDispute(trx, disputed.orderId, `dp_fit_${round}`))
    const over = await mine()
    expect(over.availableMinor).toBe(-(await shareOf(disputed.orderId)))

    const payout = await db()
      .selectFrom('creator_payouts')
      .select('id')
      .where('creator_id', '=', creator.id)
      .executeTakeFirstOrThrow()
    const fits = await whileRowHeld(
      db(),
      'creator_payouts',
      payout.id,
      () =>
        Promise.all([
          fitPayoutsToBalance(db(), over, PAYOUT_MAX_ATTEMPTS),
          fitPayoutsToBalance(db(), over, PAYOUT_MAX_ATTEMPTS),
        ]),
      { waiters: 2 },
    )
    expect(fits.reduce((sum, fit) => sum + fit.lowered, 0)).toBe(1)
    const row = await db()
      .selectFrom('creator_payouts')
      .select(['amount_minor', 'status'])
      .where('id', '=', payout.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ amount_minor: await shareOf(kept.orderId), status: 'pending' })
    expect((await mine()).availableMinor).toBe(0)
  }
})
