// An open card dispute holds back the creators' shares of the disputed order (decision 0125), through the real
// webhook and the fake Stripe: a share already released goes back from available to pending, so the month's payout
// leaves it out; a share still in its refund window stays pending past it; the dispute's close ends the hold (won, or
// lost in part: the creators' again; lost whole: taken back from pending, the chargeback fee from available).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { payable, payoutBalances } from '../../../src-server/earnings/payouts.ts'
import { releaseDueHolds } from '../../../src-server/earnings/shares.ts'
import { creatorEntries } from '../../../src-server/earnings/statements.ts'
import { settleProcessorFees } from '../../../src-server/flows/processor-fees.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { type CardSale, disputeSale, payCourseByCard } from '../../support/card-disputes.ts'
import { ownedCourse, type SoldCourse } from '../../support/earnings.ts'
import { createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'

let shop: PaymentsServer
let fake: FakeStripe
const db = () => shop.database.db
const DAY = 86_400_000
/** A moment past every refund window of this file's sales. */
const afterTheWindow = () => new Date(clock.nowMs() + 31 * DAY)

beforeAll(async () => {
  shop = await startPaymentsServer()
  fake = shop.fake
})
afterAll(() => shop.close())

/** A creator (Basic's 10 %) with a ready payout account, and their course at `priceMinor`. */
async function creatorWithCourse(priceMinor: number) {
  const creator = await createUser(db())
  await db()
    .insertInto('creator_payout_accounts')
    .values({
      creator_id: creator.id,
      stripe_account_id: `acct_hold_${creator.id.slice(0, 8)}`,
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
    })
    .execute()
  return { creator, course: await ownedCourse(db(), creator.id, priceMinor) }
}

const payByCard = (course: SoldCourse) => payCourseByCard(shop, course)
type Paid = CardSale
const dispute = (paid: Paid, event: 'created' | 'closed', status: string, amount?: number) =>
  disputeSale(shop, paid, event, status, amount)

const balanceOf = async (creatorId: string) => {
  const [usd] = await creatorBalances(db(), creatorId)
  return { pending: usd?.pendingMinor ?? 0, available: usd?.availableMinor ?? 0 }
}

/** What the month's payout run would pay the creator now (0: left out). */
const payableTo = async (creatorId: string) =>
  payable(await payoutBalances(db(), 3), 1).find((candidate) => candidate.creatorId === creatorId)?.availableMinor ?? 0

const descriptions = async (creatorId: string) =>
  (await creatorEntries(db(), creatorId, 1, 20)).entries.map((entry) => entry.description)

async function expectLedgerBalanced() {
  for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
}

describe('a dispute opened after the refund window', () => {
  it('moves the released share back to pending, out of the payout, and gives it back when won', async () => {
    const { creator, course } = await creatorWithCourse(5000)
    const paid = await payByCard(course)
    await releaseDueHolds(db(), afterTheWindow())
    const kept = (await balanceOf(creator.id)).available
    expect(kept).toBeGreaterThan(0)
    expect(await payableTo(creator.id)).toBe(kept)

    await dispute(paid, 'created', 'needs_response')
    expect(await balanceOf(creator.id)).toEqual({ pending: kept, available: 0 })
    expect(await payableTo(creator.id)).toBe(0)
    await dispute(paid, 'created', 'needs_response') // a replay holds nothing twice
    expect(await balanceOf(creator.id)).toEqual({ pending: kept, available: 0 })

    await dispute(paid, 'closed', 'won')
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: kept })
    expect(await payableTo(creator.id)).toBe(kept)
    await dispute(paid, 'closed', 'won') // a replay gives nothing twice
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: kept })
    const order = ` (order ${paid.reference})`
    expect(await descriptions(creator.id)).toEqual(
      expect.arrayContaining([
        `On hold, payment disputed by the buyer's bank: ${course.title}${order}`,
        `Hold ended, dispute closed: ${course.title}${order}`,
      ]),
    )
    await expectLedgerBalanced()
  })

  it('lost whole: the share is taken back from pending and the chargeback fee from available', async () => {
    const { creator, course } = await creatorWithCourse(4000)
    const paid = await payByCard(course)
    await releaseDueHolds(db(), afterTheWindow())
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: paid.shareMinor })

    await dispute(paid, 'created', 'needs_response')
    await dispute(paid, 'closed', 'lost')
    const fee = await db()
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .select('e.amount_minor')
      .where('t.key', 'like', `chargeback_fee:${paid.lineId}:%`)
      .where('e.account', '=', 'creator_available')
      .executeTakeFirstOrThrow()
    expect(Number(fee.amount_minor)).toBeLessThan(0)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: Number(fee.amount_minor) })
    expect(
      await db()
        .selectFrom('earning_shares')
        .select('dispute_hold_id')
        .where('order_item_id', '=', paid.lineId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ dispute_hold_id: null })
    await expectLedgerBalanced()
  })

  it('lost in part: the platform carries the loss and the share is the creator’s again', async () => {
    const { creator, course } = await creatorWithCourse(6000)
    const paid = await payByCard(course)
    await releaseDueHolds(db(), afterTheWindow())
    await dispute(paid, 'created', 'needs_response', 1000)
    expect(await balanceOf(creator.id)).toEqual({ pending: paid.shareMinor, available: 0 })
    await dispute(paid, 'closed', 'lost', 1000)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: paid.shareMinor })
    await expectLedgerBalanced()
  })
})

describe('a dispute opened inside the refund window', () => {
  it('keeps the share pending past the window until the dispute is won', async () => {
    const { creator, course } = await creatorWithCourse(3000)
    const paid = await payByCard(course)
    await dispute(paid, 'created', 'needs_response')
    expect(await releaseDueHolds(db(), afterTheWindow())).toBe(0)
    expect(await balanceOf(creator.id)).toEqual({ pending: paid.shareMinor, available: 0 })
    expect(await payableTo(creator.id)).toBe(0)

    await dispute(paid, 'closed', 'won')
    // Never released, so nothing moves back: the next release run releases it as any other share.
    expect(await balanceOf(creator.id)).toEqual({ pending: paid.shareMinor, available: 0 })
    expect(await releaseDueHolds(db(), afterTheWindow())).toBe(1)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: paid.shareMinor })
    await expectLedgerBalanced()
  })

  it('lost whole: takes the share back from pending, never released', async () => {
    const { creator, course } = await creatorWithCourse(3500)
    const paid = await payByCard(course)
    await dispute(paid, 'created', 'needs_response')
    await dispute(paid, 'closed', 'lost')
    expect((await balanceOf(creator.id)).pending).toBe(0)
    expect(await releaseDueHolds(db(), afterTheWindow())).toBe(0)
    await expectLedgerBalanced()
  })
})

it('the processor’s fee taken while a dispute holds the share comes out of pending, and the end moves the rest', async () => {
  const { creator, course } = await creatorWithCourse(5000)
  fake.failNextPaymentIntentRead() // the fee is not known at the sale
  const paid = await payByCard(course)
  await releaseDueHolds(db(), afterTheWindow())
  await dispute(paid, 'created', 'needs_response')
  expect(await balanceOf(creator.id)).toEqual({ pending: paid.shareMinor, available: 0 })
  expect(await settleProcessorFees(db(), shop.payments.stripe!, paid.orderId)).toBe('taken')
  const left = paid.shareMinor - fake.connect.feeFor(5000)
  expect(await balanceOf(creator.id)).toEqual({ pending: left, available: 0 })
  await dispute(paid, 'closed', 'won')
  expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: left })
  await expectLedgerBalanced()
})

it('a dispute closed before its opening ever arrived holds nothing', async () => {
  const { creator, course } = await creatorWithCourse(2500)
  const paid = await payByCard(course)
  await releaseDueHolds(db(), afterTheWindow())
  await dispute(paid, 'closed', 'won')
  await dispute(paid, 'created', 'needs_response') // late: the dispute is over
  expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: paid.shareMinor })
  await expectLedgerBalanced()
})
