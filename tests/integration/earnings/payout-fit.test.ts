// A payout not yet made is lowered to what its creator still has (decision 0127): Stripe refused a month's transfer,
// and before the retry the buyer's bank disputed one of the sales it paid, holding that share back (decision 0125).
// Before the fix the retry sent the amount the payout was opened with, the held share included, and the creator's
// available balance went below zero by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { openPayout, payable, payoutBalances } from '../../../src-server/earnings/payouts.ts'
import { releaseAllDueHolds } from '../../../src-server/flows/creator-earnings.ts'
import { PAYOUT_MAX_ATTEMPTS, runPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { disputeSale, payCourseByCard } from '../../support/card-disputes.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { createUser } from '../../support/factories.ts'
import { onboardedCreator, type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'

let shop: PaymentsServer
const db = () => shop.database.db
const DAY = 86_400_000

beforeAll(async () => {
  shop = await startPaymentsServer()
})
afterAll(() => shop.close())

const transfersTo = (accountId: string) =>
  [...shop.fake.connect.transfers.values()].filter((transfer) => transfer.destination === accountId)
const transferredTo = (accountId: string) => transfersTo(accountId).reduce((sum, transfer) => sum + transfer.amount, 0)

const payoutsOf = (creatorId: string) =>
  db()
    .selectFrom('creator_payouts')
    .select(['month', 'amount_minor', 'status', 'last_error'])
    .where('creator_id', '=', creatorId)
    .orderBy('month')
    .execute()

const balanceOf = async (creatorId: string) => {
  const [usd] = await creatorBalances(db(), creatorId)
  return { pending: usd?.pendingMinor ?? 0, available: usd?.availableMinor ?? 0, paidOut: usd?.paidOutMinor ?? 0 }
}

const run = (month: string) => runPayouts(db(), shop.payments.stripe, { month, thresholdMinor: 1 })

/** A Pro creator with a ready payout account who sold each price by card; every share released. */
async function creatorWithSales(prices: number[]) {
  const { creator, accountId } = await onboardedCreator(shop, 'pro')
  const sales = []
  for (const price of prices) sales.push(await payCourseByCard(shop, await ownedCourse(db(), creator.id, price)))
  await releaseAllDueHolds(db(), new Date(clock.nowMs() + 31 * DAY))
  return { creator, accountId, sales }
}

async function expectLedgerBalanced() {
  for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
}

describe('a payout refused, then a dispute before its retry', () => {
  it('is retried for what the creator still has; the held share is paid when the dispute is won', async () => {
    const { creator, accountId, sales } = await creatorWithSales([8000, 10_000])
    const [disputed, kept] = sales
    const opened = (await balanceOf(creator.id)).available
    expect(opened).toBe(disputed!.shareMinor + kept!.shareMinor)

    shop.fake.connect.failNextTransfer('You have insufficient available funds in your Stripe account.', 400)
    expect(await run('2031-01')).toMatchObject({ opened: 1, failed: 1, paid: 0 })
    await disputeSale(shop, disputed!, 'created', 'needs_response')
    expect(await balanceOf(creator.id)).toMatchObject({ pending: disputed!.shareMinor, available: kept!.shareMinor })

    // The retry sends the share not disputed, under a key of its own (the refused try's key had the old amount).
    expect(await run('2031-01')).toMatchObject({ opened: 0, lowered: 1, withdrawn: 0, paid: 1 })
    expect(transfersTo(accountId).map((transfer) => transfer.amount)).toEqual([kept!.shareMinor])
    expect(await payoutsOf(creator.id)).toEqual([
      expect.objectContaining({ month: '2031-01', amount_minor: kept!.shareMinor, status: 'paid' }),
    ])
    expect(await balanceOf(creator.id)).toEqual({
      pending: disputed!.shareMinor,
      available: 0,
      paidOut: kept!.shareMinor,
    })
    const [row] = await db()
      .selectFrom('creator_payouts')
      .select('transfer_key')
      .where('creator_id', '=', creator.id)
      .execute()
    expect(row?.transfer_key).toBe(`payout:${creator.id}:2031-01:USD:2`)

    await disputeSale(shop, disputed!, 'closed', 'won')
    expect(await run('2031-02')).toMatchObject({ opened: 1, lowered: 0, paid: 1 })
    expect(transferredTo(accountId)).toBe(opened)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 0, paidOut: opened })
    await expectLedgerBalanced()
  })

  it('a payout whose whole amount the dispute holds is withdrawn, never sent', async () => {
    const { creator, accountId, sales } = await creatorWithSales([6000])
    const [sale] = sales
    shop.fake.connect.failNextTransfer('You have insufficient available funds in your Stripe account.', 400)
    await run('2031-01')
    await disputeSale(shop, sale!, 'created', 'needs_response')

    expect(await run('2031-01')).toMatchObject({ opened: 0, lowered: 0, withdrawn: 1, paid: 0, failed: 0 })
    expect(transfersTo(accountId)).toHaveLength(0)
    expect(await payoutsOf(creator.id)).toEqual([
      {
        month: '2031-01',
        amount_minor: sale!.shareMinor,
        status: 'withdrawn',
        last_error: 'Nothing left to pay: a dispute or a refund took the balance back',
      },
    ])
    expect(await run('2031-01')).toMatchObject({ opened: 0, withdrawn: 0, paid: 0 }) // withdrawn stays withdrawn

    await disputeSale(shop, sale!, 'closed', 'won')
    await run('2031-02')
    expect(transferredTo(accountId)).toBe(sale!.shareMinor)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 0, paidOut: sale!.shareMinor })
    await expectLedgerBalanced()
  })

  it('two payouts not yet sent: the newest gives up the difference, the balance is paid once', async () => {
    const { creator, accountId, sales } = await creatorWithSales([8000])
    const [january] = sales
    const open = async (month: string) => {
      for (const candidate of payable(await payoutBalances(db(), PAYOUT_MAX_ATTEMPTS), 1)) {
        if (candidate.creatorId === creator.id) await openPayout(db(), candidate, month)
      }
    }
    await open('2031-01') // opened, not sent yet (a run stopped after opening)
    const february = await payCourseByCard(shop, await ownedCourse(db(), creator.id, 10_000))
    await releaseAllDueHolds(db(), new Date(clock.nowMs() + 31 * DAY))
    await open('2031-02')
    await disputeSale(shop, january!, 'created', 'needs_response')

    expect(await run('2031-02')).toMatchObject({ opened: 0, lowered: 1, withdrawn: 0, paid: 2 })
    expect(await payoutsOf(creator.id)).toEqual([
      expect.objectContaining({ month: '2031-01', amount_minor: january!.shareMinor, status: 'paid' }),
      expect.objectContaining({ month: '2031-02', amount_minor: february.shareMinor - january!.shareMinor }),
    ])
    expect(transferredTo(accountId)).toBe(february.shareMinor)
    expect(await balanceOf(creator.id)).toEqual({
      pending: january!.shareMinor,
      available: 0,
      paidOut: february.shareMinor,
    })
    await expectLedgerBalanced()
  })
})

describe('a payout refused, then a staff refund before its retry', () => {
  it('is retried without the refunded share, which the refund took back from available', async () => {
    const { creator, accountId } = await onboardedCreator(shop, 'pro')
    const refunded = await sell(db(), [await ownedCourse(db(), creator.id, 4000)])
    await sell(db(), [await ownedCourse(db(), creator.id, 6000)]) // kept
    await releaseAllDueHolds(db(), new Date(clock.nowMs() + 31 * DAY))
    const opened = (await balanceOf(creator.id)).available
    shop.fake.connect.failNextTransfer('You have insufficient available funds in your Stripe account.', 400)
    await run('2031-01')

    const admin = await createUser(db(), { role: 'admin' })
    await refundOrder(
      db(),
      {
        orderId: refunded.orderId,
        lineIds: refunded.lineIds,
        reference: 'BANK-REF-FIT',
        actor: { id: admin.id, email: admin.email },
      },
      null,
    )
    const left = (await balanceOf(creator.id)).available
    expect(left).toBeLessThan(opened)

    expect(await run('2031-01')).toMatchObject({ lowered: 1, paid: 1 })
    expect(transferredTo(accountId)).toBe(left)
    expect(await balanceOf(creator.id)).toEqual({ pending: 0, available: 0, paidOut: left })
    await expectLedgerBalanced()
  })
})

describe('a payout Stripe may have made, then a dispute', () => {
  it('keeps its amount: it is looked up and sent as it was, the creator owes the held share (as before)', async () => {
    const { creator, accountId, sales } = await creatorWithSales([8000])
    const [sale] = sales
    shop.fake.connect.failNextTransfer('An error occurred with our connection to Stripe.', 500)
    expect(await run('2031-01')).toMatchObject({ unconfirmed: 1 })
    await disputeSale(shop, sale!, 'created', 'needs_response')

    expect(await run('2031-01')).toMatchObject({ lowered: 0, withdrawn: 0, paid: 1 })
    expect(transferredTo(accountId)).toBe(sale!.shareMinor)
    expect(await balanceOf(creator.id)).toEqual({
      pending: sale!.shareMinor,
      available: -sale!.shareMinor,
      paidOut: sale!.shareMinor,
    })
    await expectLedgerBalanced()
  })
})

describe('the idempotency key of a retry', () => {
  const keyOf = async (creatorId: string) =>
    (
      await db()
        .selectFrom('creator_payouts')
        .select('transfer_key')
        .where('creator_id', '=', creatorId)
        .executeTakeFirstOrThrow()
    ).transfer_key

  it('is the same after no answer, under which Stripe would answer with the transfer it made', async () => {
    const { creator, accountId, sales } = await creatorWithSales([7000])
    shop.fake.connect.loseNextTransferAnswer('reset')
    expect(await run('2031-01')).toMatchObject({ unconfirmed: 1 })
    expect(await keyOf(creator.id)).toBe(`payout:${creator.id}:2031-01:USD:1`)
    expect(await run('2031-01')).toMatchObject({ paid: 1 })
    expect(await keyOf(creator.id)).toBe(`payout:${creator.id}:2031-01:USD:1`)
    expect(transfersTo(accountId).map((transfer) => transfer.amount)).toEqual([sales[0]!.shareMinor])
  })

  it('is new after a server error, whose answer Stripe keeps under the old key', async () => {
    const { creator, accountId, sales } = await creatorWithSales([7000])
    shop.fake.connect.failNextTransfer('An error occurred with our connection to Stripe.', 500)
    expect(await run('2031-01')).toMatchObject({ unconfirmed: 1 })
    expect(await keyOf(creator.id)).toBeNull()
    expect(await run('2031-01')).toMatchObject({ paid: 1 })
    expect(await keyOf(creator.id)).toBe(`payout:${creator.id}:2031-01:USD:2`)
    expect(transfersTo(accountId).map((transfer) => transfer.amount)).toEqual([sales[0]!.shareMinor])
  })
})
