// A payout that failed one month and is still being retried must not be paid again inside the next month's payout:
// the next run opens its row with the available balance less what earlier unsent payouts already claim, so the two
// transfers together pay the available balance once (before the fix the new row took the whole balance, the old
// failed row was sent as well, and the creator was paid the failed month twice, leaving available negative).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { releaseAllDueHolds } from '../../../src-server/flows/creator-earnings.ts'
import { PAYOUT_MAX_ATTEMPTS, runPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { onboardedCreator, type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'

let shop: PaymentsServer
const db = () => shop.database.db
const DAY = 86_400_000

beforeAll(async () => {
  shop = await startPaymentsServer()
})
afterAll(() => shop.close())

/** Stripe refuses the next transfer outright (a 4xx: it made nothing), as when the platform's balance is short. */
const refuseNextTransfer = () =>
  shop.fake.connect.failNextTransfer('You have insufficient available funds in your Stripe account.', 400)

const transferredTo = (accountId: string) =>
  [...shop.fake.connect.transfers.values()]
    .filter((transfer) => transfer.destination === accountId)
    .reduce((sum, transfer) => sum + transfer.amount, 0)

describe('a failed payout carried into the next month', () => {
  it('is paid once: the next month pays only what the failed payout does not already claim', async () => {
    const { creator, accountId } = await onboardedCreator(shop, 'pro')
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))

    // January's run: Stripe refuses the transfer, the payout stays failed (to be retried) and nothing moved.
    refuseNextTransfer()
    const january = await runPayouts(db(), shop.payments.stripe, { month: '2031-01', thresholdMinor: 1 })
    expect(january).toMatchObject({ paid: 0, failed: 1, unconfirmed: 0 })
    expect(transferredTo(accountId)).toBe(0)

    // More sales become available before February's run.
    await sell(db(), [await ownedCourse(db(), creator.id, 10_000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
    expect((await creatorBalances(db(), creator.id))[0]?.availableMinor).toBe(7600 + 9500)

    await runPayouts(db(), shop.payments.stripe, { month: '2031-02', thresholdMinor: 1 })
    // January's 76.00 retried and February's 95.00: the balance paid once, never more.
    expect(transferredTo(accountId)).toBe(7600 + 9500)
    expect(await creatorBalances(db(), creator.id)).toEqual([
      { currency: 'USD', pendingMinor: 0, availableMinor: 0, paidOutMinor: 7600 + 9500 },
    ])
    const rows = await db()
      .selectFrom('creator_payouts')
      .select(['month', 'amount_minor', 'status'])
      .where('creator_id', '=', creator.id)
      .orderBy('month')
      .execute()
    expect(rows).toEqual([
      { month: '2031-01', amount_minor: 7600, status: 'paid' },
      { month: '2031-02', amount_minor: 9500, status: 'paid' },
    ])
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  })

  it('a payout refused on its last try is no longer claimed: the next month pays its amount instead', async () => {
    const { creator, accountId } = await onboardedCreator(shop, 'pro')
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
    refuseNextTransfer()
    await runPayouts(db(), shop.payments.stripe, { month: '2031-01', thresholdMinor: 1 })
    await db()
      .updateTable('creator_payouts')
      .set({ attempts: PAYOUT_MAX_ATTEMPTS })
      .where('creator_id', '=', creator.id)
      .execute()

    await runPayouts(db(), shop.payments.stripe, { month: '2031-02', thresholdMinor: 1 })
    expect(transferredTo(accountId)).toBe(7600)
    expect((await creatorBalances(db(), creator.id))[0]).toMatchObject({ availableMinor: 0, paidOutMinor: 7600 })
  })
})

describe('a payout whose answer was lost, retried after Stripe forgot its idempotency key', () => {
  it('finds the transfer the first try made and is not paid again', async () => {
    const { creator, accountId } = await onboardedCreator(shop, 'pro')
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))

    // Stripe makes January's transfer, but the answer never arrives: the row is unconfirmed, still claimed.
    shop.fake.connect.loseNextTransferAnswer()
    expect(await runPayouts(db(), shop.payments.stripe, { month: '2031-01', thresholdMinor: 1 })).toMatchObject({
      paid: 0,
      failed: 0,
      unconfirmed: 1,
    })
    expect(transferredTo(accountId)).toBe(7600)

    // February's run, a month later: the key is long gone, so only asking Stripe what it made avoids a second 76.00.
    shop.fake.connect.expireIdempotencyKeys()
    await runPayouts(db(), shop.payments.stripe, { month: '2031-02', thresholdMinor: 1 })
    expect(transferredTo(accountId)).toBe(7600)
    const [transfer] = [...shop.fake.connect.transfers.values()].filter((t) => t.destination === accountId)
    expect(
      await db()
        .selectFrom('creator_payouts')
        .select(['month', 'status', 'stripe_transfer_id'])
        .where('creator_id', '=', creator.id)
        .execute(),
    ).toEqual([{ month: '2031-01', status: 'paid', stripe_transfer_id: transfer?.id }])
    expect(await creatorBalances(db(), creator.id)).toEqual([
      { currency: 'USD', pendingMinor: 0, availableMinor: 0, paidOutMinor: 7600 },
    ])
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  })
})

// The audit's case: Stripe refuses a payout's first tries (the run on the 1st and the job's retries), then makes the
// transfer on the last try allowed but its answer is lost. Before the fix that last try left the row 'failed' at the
// try limit: no longer retried, no longer claiming its amount, never looked up; the next run opened a new payout of
// the same amount and paid it, so Stripe had paid twice while the ledger's paid out showed it once.
describe('a payout whose last allowed try is made by Stripe but its answer is lost', () => {
  const refusals = {
    'refused outright (400: the platform balance is short)': 'refused',
    'a Stripe outage (500: nothing made)': 'outage',
  } as const
  const losses = {
    'the connection drops unanswered': 'reset',
    'Stripe answers 500 after making it': 'server_error',
  } as const

  for (const [refusalName, refusal] of Object.entries(refusals)) {
    for (const [lossName, loss] of Object.entries(losses)) {
      it(`${refusalName}, then ${lossName}: paid exactly once, the ledger as Stripe`, async () => {
        const { creator, accountId } = await onboardedCreator(shop, 'pro')
        await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
        await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
        const balance = shop.fake.connect.balance.get('usd') ?? 0

        // Tries 1 to 4: the run on the 1st and the job's three retries, each one refused.
        for (let attempt = 1; attempt < PAYOUT_MAX_ATTEMPTS; attempt++) {
          if (refusal === 'refused') shop.fake.connect.balance.set('usd', 0)
          else shop.fake.connect.failNextTransfer()
          await runPayouts(db(), shop.payments.stripe, { month: '2031-01', thresholdMinor: 1 })
          shop.fake.connect.balance.set('usd', balance)
        }
        expect(transferredTo(accountId)).toBe(0)

        // Try 5, the last allowed (next month's run): Stripe makes the transfer, the answer never arrives.
        shop.fake.connect.loseNextTransferAnswer(loss)
        await runPayouts(db(), shop.payments.stripe, { month: '2031-02', thresholdMinor: 1 })
        expect(transferredTo(accountId)).toBe(7600)
        expect(await creatorBalances(db(), creator.id)).toEqual([
          { currency: 'USD', pendingMinor: 0, availableMinor: 7600, paidOutMinor: 0 },
        ])

        // The job's retry of that run, and the month after's run with Stripe's idempotency keys long gone.
        await runPayouts(db(), shop.payments.stripe, { month: '2031-02', thresholdMinor: 1 })
        shop.fake.connect.expireIdempotencyKeys()
        await runPayouts(db(), shop.payments.stripe, { month: '2031-03', thresholdMinor: 1 })

        // One transfer of 76.00, and the ledger's paid out is what Stripe transferred.
        const transfers = [...shop.fake.connect.transfers.values()].filter((t) => t.destination === accountId)
        expect(transfers.map((transfer) => transfer.amount)).toEqual([7600])
        expect(await creatorBalances(db(), creator.id)).toEqual([
          { currency: 'USD', pendingMinor: 0, availableMinor: 0, paidOutMinor: transferredTo(accountId) },
        ])
        expect(
          await db()
            .selectFrom('creator_payouts')
            .select(['month', 'status', 'stripe_transfer_id', 'attempts'])
            .where('creator_id', '=', creator.id)
            .execute(),
        ).toEqual([
          { month: '2031-01', status: 'paid', stripe_transfer_id: transfers[0]!.id, attempts: PAYOUT_MAX_ATTEMPTS + 1 },
        ])
        for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
      })
    }
  }
})
