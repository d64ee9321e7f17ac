// A payout that failed one month and is still being retried must not be paid again inside the next month's payout:
// the next run opens its row with the available balance less what earlier unsent payouts already claim, so the two
// transfers together pay the available balance once (before the fix the new row took the whole balance, the old
// failed row was sent as well, and the creator was paid the failed month twice, leaving available negative).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { releaseAllDueHolds } from '../../../src-server/flows/creator-earnings.ts'
import { PAYOUT_MAX_ATTEMPTS, runPayouts, setUpPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'

let shop: PaymentsServer
const db = () => shop.database.db
const DAY = 86_400_000

beforeAll(async () => {
  shop = await startPaymentsServer()
})
afterAll(() => shop.close())

async function onboardedCreator() {
  const creator = await createCreator(db(), { plan: 'pro' })
  await setUpPayouts(db(), shop.payments.stripe, creator, {
    returnUrl: 'http://localhost/studio/payouts?return=1',
    refreshUrl: 'http://localhost/studio/payouts?refresh=1',
  })
  const account = await db()
    .selectFrom('creator_payout_accounts')
    .select('stripe_account_id')
    .where('creator_id', '=', creator.id)
    .executeTakeFirstOrThrow()
  shop.fake.connect.completeOnboarding(account.stripe_account_id)
  await shop.fake.flush()
  return { creator, accountId: account.stripe_account_id }
}

const transferredTo = (accountId: string) =>
  [...shop.fake.connect.transfers.values()]
    .filter((transfer) => transfer.destination === accountId)
    .reduce((sum, transfer) => sum + transfer.amount, 0)

describe('a failed payout carried into the next month', () => {
  it('is paid once: the next month pays only what the failed payout does not already claim', async () => {
    const { creator, accountId } = await onboardedCreator()
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))

    // January's run: Stripe is down, the payout stays failed (to be retried) and nothing moved.
    shop.fake.connect.failNextTransfer()
    const january = await runPayouts(db(), shop.payments.stripe, { month: '2031-01', thresholdMinor: 1 })
    expect(january).toMatchObject({ paid: 0, failed: 1 })
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

  it('a payout failed past its last try is no longer claimed: the next month pays its amount instead', async () => {
    const { creator, accountId } = await onboardedCreator()
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
    shop.fake.connect.failNextTransfer()
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
    const { creator, accountId } = await onboardedCreator()
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))

    // Stripe makes January's transfer, but the answer never arrives: the row stays failed, to be retried.
    shop.fake.connect.loseNextTransferAnswer()
    expect(await runPayouts(db(), shop.payments.stripe, { month: '2031-01', thresholdMinor: 1 })).toMatchObject({
      paid: 0,
      failed: 1,
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
