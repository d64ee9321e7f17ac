// Payouts racing on PostgreSQL (issue 31). Two workers running the month's payouts at once pay each creator once:
// the payout row (unique per creator, month and currency) is the claim and only one worker moves it to 'sending'.
// A refund racing the payout: either the share is reversed before the payout opens (nothing to pay), or the payout
// pays the share and the refund leaves available negative — never a payout of a refunded share with no debt left.
import { afterAll, beforeAll, expect } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { releaseAllDueHolds } from '../../../src-server/flows/creator-earnings.ts'
import { runPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import { createStripeApi, type StripeApi } from '../../../src-server/payments/stripe.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { type FakeStripe, startFakeStripe } from '../../support/fake-stripe.ts'
import { raceIt } from '../../support/race.ts'

let database: TestDatabase
let fake: FakeStripe
let stripe: StripeApi
let admin: TestUser
const db = () => database.db
const DAY = 86_400_000

beforeAll(async () => {
  database = await createTestDatabase()
  fake = await startFakeStripe()
  stripe = createStripeApi({ secretKey: fake.secretKey, apiUrl: fake.url })
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(async () => {
  await fake.close()
  await database.close()
})

/** A creator with an onboarded Express account (its state written as account.updated would). */
async function readyCreator() {
  const creator = await createCreator(db(), { plan: 'basic' })
  const account = await stripe.connect.createExpressAccount(
    { email: creator.email, metadata: { creator_id: creator.id } },
    `connect-account:${creator.id}`,
  )
  fake.connect.completeOnboarding(account.id)
  await db()
    .insertInto('creator_payout_accounts')
    .values({
      creator_id: creator.id,
      stripe_account_id: account.id,
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
    })
    .execute()
  return { creator, accountId: account.id }
}

const transfersTo = (accountId: string) =>
  [...fake.connect.transfers.values()].filter((transfer) => transfer.destination === accountId)

raceIt('two payout runs at once pay each creator once', async () => {
  for (let round = 0; round < 3; round++) {
    const month = `2030-0${round + 1}`
    const ready = await Promise.all([readyCreator(), readyCreator()])
    for (const { creator } of ready) await sell(db(), [await ownedCourse(db(), creator.id, 10_000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => runPayouts(db(), stripe, { month, thresholdMinor: 100 })),
    )
    // Between them the runs paid the two creators, once each.
    expect(runs.reduce((sum, run) => sum + run.paid, 0)).toBe(2)
    for (const { creator, accountId } of ready) {
      expect(transfersTo(accountId).map((transfer) => transfer.amount)).toEqual([9000])
      expect(await creatorBalances(db(), creator.id)).toEqual([
        { currency: 'USD', pendingMinor: 0, availableMinor: 0, paidOutMinor: 9000 },
      ])
    }
  }
  for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
})

raceIt(
  'a refund racing the payout: reversed before it opens, or paid and owed back — never paid and forgotten',
  async () => {
    const outcomes = new Set<string>()
    for (let round = 0; round < 6; round++) {
      const { creator, accountId } = await readyCreator()
      const sale = await sell(db(), [await ownedCourse(db(), creator.id, 10_000)])
      await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
      const refund = () =>
        refundOrder(
          db(),
          {
            orderId: sale.orderId,
            lineIds: sale.lineIds,
            reference: `RACE-REFUND-${round}`,
            actor: { id: admin.id, email: admin.email },
          },
          null,
        )
      const pay = () =>
        runPayouts(db(), stripe, { month: `2031-${String(round + 1).padStart(2, '0')}`, thresholdMinor: 100 })
      // Alternate who starts first so both orders of arrival are tried.
      await Promise.all(round % 2 ? [refund(), pay()] : [pay(), refund()])

      const transfers = transfersTo(accountId)
      const [usd] = await creatorBalances(db(), creator.id)
      if (transfers.length === 0) {
        outcomes.add('reversed first')
        expect(usd).toEqual({ currency: 'USD', pendingMinor: 0, availableMinor: 0, paidOutMinor: 0 })
      } else {
        outcomes.add('paid then owed')
        expect(transfers.map((transfer) => transfer.amount)).toEqual([9000])
        // The refunded share was paid: the creator owes it back from later earnings.
        expect(usd).toEqual({ currency: 'USD', pendingMinor: 0, availableMinor: -9000, paidOutMinor: 9000 })
      }
      // The refund was taken exactly once.
      const reversals = await db()
        .selectFrom('ledger_transactions')
        .select('id')
        .where('key', '=', `reversal:${sale.lineIds[0]}`)
        .execute()
      expect(reversals).toHaveLength(1)
    }
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
    expect(outcomes.size).toBeGreaterThan(0)
  },
)
