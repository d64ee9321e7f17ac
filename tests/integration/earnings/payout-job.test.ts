// The monthly payout job end to end against the fake Stripe (issue 31): a creator onboards through Stripe's hosted
// pages (account.updated delivered to the webhook makes the account ready), a sale's share is released after the
// hold, and the 'earnings.payouts' job transfers exactly the available balance once; a second run pays nothing
// twice; a Stripe outage leaves the payout unconfirmed (visible to staff, ledger untouched, still claimed) and the next
// run looks it up and pays it with the same idempotency key; a transfer Stripe refuses leaves it failed; balances under
// the threshold and creators without a ready account accrue. Decision 0164: a suspended creator is paid nothing while
// the suspension lasts, not even a payout opened before it; lifted, the next run pays it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { creatorBalances, ledgerTotals } from '../../../src-server/earnings/balances.ts'
import { payoutKey } from '../../../src-server/earnings/payouts.ts'
import { releaseAllDueHolds } from '../../../src-server/flows/creator-earnings.ts'
import { payoutMonthOf, runPayouts, setUpPayouts } from '../../../src-server/flows/creator-payouts.ts'
import { handlers, type JobDeps, queues, schedules } from '../../../src-server/jobs/registry.ts'
import { createCreator } from '../../support/creator-courses.ts'
import { ownedCourse, sell } from '../../support/earnings.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { captureLog } from '../../support/jobs.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
const db = () => shop.database.db
const DAY = 86_400_000
const { log, entries: logged } = captureLog()

beforeAll(async () => {
  shop = await startPaymentsServer()
})
afterAll(() => shop.close())

/** The job as the worker runs it (jobs/registry.ts), with the threshold from PAYOUT_THRESHOLD_MINOR. */
function runJob(thresholdMinor = 5000) {
  const deps = { db: db(), log, stripe: shop.payments.stripe, payouts: { thresholdMinor } } as unknown as JobDeps
  return handlers(deps)['earnings.payouts']({ id: 'job', name: 'earnings.payouts', data: {} } as never)
}

/** A creator onboarded through the hosted page, the account.updated event delivered to the webhook. */
async function onboardedCreator(): Promise<{ creator: TestUser; accountId: string }> {
  const creator = await createCreator(db(), { plan: 'pro' })
  const url = await setUpPayouts(db(), shop.payments.stripe, creator, {
    returnUrl: 'http://localhost/studio/payouts?return=1',
    refreshUrl: 'http://localhost/studio/payouts?refresh=1',
  })
  const account = await db()
    .selectFrom('creator_payout_accounts')
    .selectAll()
    .where('creator_id', '=', creator.id)
    .executeTakeFirstOrThrow()
  expect(account.payouts_enabled).toBe(false)
  expect(url).toContain('/connect/onboarding/')
  shop.fake.connect.completeOnboarding(account.stripe_account_id)
  const statuses = await shop.fake.flush()
  expect(statuses.length).toBeGreaterThan(0)
  expect(statuses.every((status) => status === 200)).toBe(true)
  return { creator, accountId: account.stripe_account_id }
}

const transfersTo = (accountId: string) =>
  [...shop.fake.connect.transfers.values()].filter((transfer) => transfer.destination === accountId)

const payoutsOf = (creatorId: string) =>
  db().selectFrom('creator_payouts').selectAll().where('creator_id', '=', creatorId).execute()

describe('the monthly payout job', () => {
  it('is a queue with retries and runs on the 1st of each month at 06:00 UTC', () => {
    expect(schedules).toContainEqual({ name: 'earnings.payouts', cron: '0 6 1 * *', data: {} })
    expect(queues['earnings.payouts'].retryLimit).toBeGreaterThan(0)
  })

  it('pays the released share once, exactly, and moves the ledger; a second run pays nothing twice', async () => {
    const { creator, accountId } = await onboardedCreator()
    const account = await db()
      .selectFrom('creator_payout_accounts')
      .selectAll()
      .where('creator_id', '=', creator.id)
      .executeTakeFirstOrThrow()
    // account.updated through the webhook made it ready.
    expect(account).toMatchObject({ payouts_enabled: true, details_submitted: true, requirements_due: [] })

    await sell(db(), [await ownedCourse(db(), creator.id, 4999)])
    await sell(db(), [await ownedCourse(db(), creator.id, 10_000)])
    // Inside the hold: nothing is available, the job pays nothing.
    await runJob()
    expect(transfersTo(accountId)).toHaveLength(0)

    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
    // Pro 5 %: 4999 → 4749, 10000 → 9500.
    expect(await creatorBalances(db(), creator.id)).toEqual([
      { currency: 'USD', pendingMinor: 0, availableMinor: 14_249, paidOutMinor: 0 },
    ])
    await runJob()
    const [transfer] = transfersTo(accountId)
    expect(transfersTo(accountId)).toHaveLength(1)
    expect(transfer).toMatchObject({
      amount: 14_249,
      currency: 'usd',
      transfer_group: `payout-${payoutMonthOf(new Date())}`,
    })
    expect(await creatorBalances(db(), creator.id)).toEqual([
      { currency: 'USD', pendingMinor: 0, availableMinor: 0, paidOutMinor: 14_249 },
    ])
    expect(await payoutsOf(creator.id)).toEqual([
      expect.objectContaining({ status: 'paid', amount_minor: 14_249, stripe_transfer_id: transfer!.id, attempts: 1 }),
    ])

    await runJob()
    await runPayouts(db(), shop.payments.stripe, { month: payoutMonthOf(new Date()), thresholdMinor: 1 })
    expect(transfersTo(accountId)).toHaveLength(1)
    expect((await creatorBalances(db(), creator.id))[0]?.paidOutMinor).toBe(14_249)
    for (const total of (await ledgerTotals(db())).values()) expect(total).toBe(0)
  })

  it('a Stripe outage leaves the payout unconfirmed and the ledger untouched; the next run pays it once', async () => {
    const { creator, accountId } = await onboardedCreator()
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))

    // A 500's result is indeterminate (Stripe may have made the transfer): the payout is not given up as failed.
    shop.fake.connect.failNextTransfer('An error occurred with our connection to Stripe.', 500)
    // The job fails so the queue retries it.
    await expect(runJob()).rejects.toThrow(/0 payout\(s\) failed, 1 unconfirmed/)
    const [failed] = await payoutsOf(creator.id)
    expect(failed).toMatchObject({ status: 'unconfirmed', amount_minor: 7600, attempts: 1 })
    expect(failed!.last_error).toContain('connection to Stripe')
    expect(transfersTo(accountId)).toHaveLength(0)
    expect(await creatorBalances(db(), creator.id)).toEqual([
      { currency: 'USD', pendingMinor: 0, availableMinor: 7600, paidOutMinor: 0 },
    ])

    await runJob()
    const transfers = transfersTo(accountId)
    expect(transfers).toHaveLength(1)
    const [paid] = await payoutsOf(creator.id)
    expect(paid).toMatchObject({ status: 'paid', attempts: 2, last_error: null, stripe_transfer_id: transfers[0]!.id })
    // The same payout row (its key: creator, month, currency) was retried, not a new one.
    expect(paid!.id).toBe(failed!.id)
    expect(transfers[0]!.metadata).toMatchObject({ payout_id: failed!.id })
    expect(payoutKey({ creatorId: creator.id, month: paid!.month, currency: 'USD' })).toBe(
      `payout:${creator.id}:${paid!.month}:USD`,
    )
    expect(await creatorBalances(db(), creator.id)).toEqual([
      { currency: 'USD', pendingMinor: 0, availableMinor: 0, paidOutMinor: 7600 },
    ])
  })

  it('a transfer Stripe refuses (a 4xx: nothing made) leaves the payout failed; the job retries it', async () => {
    const { creator, accountId } = await onboardedCreator()
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))

    shop.fake.connect.failNextTransfer('You have insufficient available funds in your Stripe account.', 400)
    await expect(runJob()).rejects.toThrow(/1 payout\(s\) failed, 0 unconfirmed/)
    const [failed] = await payoutsOf(creator.id)
    expect(failed).toMatchObject({ status: 'failed', amount_minor: 7600, attempts: 1 })
    expect(failed!.last_error).toContain('insufficient available funds')
    expect(transfersTo(accountId)).toHaveLength(0)

    await runJob()
    expect(transfersTo(accountId).map((transfer) => transfer.amount)).toEqual([7600])
    expect(await payoutsOf(creator.id)).toEqual([expect.objectContaining({ status: 'paid', attempts: 2 })])
  })

  it('balances under the threshold and creators without a ready account accrue', async () => {
    const { creator, accountId } = await onboardedCreator()
    await sell(db(), [await ownedCourse(db(), creator.id, 1000)])
    const waiting = await createCreator(db(), { plan: 'basic' })
    await sell(db(), [await ownedCourse(db(), waiting.id, 20_000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))

    await runJob(5000)
    expect(transfersTo(accountId)).toHaveLength(0)
    expect(await payoutsOf(creator.id)).toEqual([])
    expect(await payoutsOf(waiting.id)).toEqual([])
    expect((await creatorBalances(db(), waiting.id))[0]?.availableMinor).toBe(18_000)
    expect(logged.some((entry) => entry.message === 'ran creators’ payouts')).toBe(true)
  })

  it('a suspended creator is paid nothing while it lasts, not even a payout opened before; lifted, it is paid once', async () => {
    const { creator, accountId } = await onboardedCreator()
    await sell(db(), [await ownedCourse(db(), creator.id, 8000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 31 * DAY))
    // A payout opened before the suspension, left unconfirmed by an outage: the next run would look it up and send it.
    shop.fake.connect.failNextTransfer('An error occurred with our connection to Stripe.', 500)
    await expect(runJob()).rejects.toThrow(/1 unconfirmed/)

    const admin = await shopCaller(db(), await createUser(db(), { role: 'admin' }), shop.payments)
    await admin.admin.customers.suspend({
      customerId: creator.id,
      reason: 'Selling courses copied from another school.',
    })
    await sell(db(), [await ownedCourse(db(), creator.id, 10_000)])
    await releaseAllDueHolds(db(), new Date(Date.now() + 62 * DAY))
    const month = payoutMonthOf(new Date())
    const held = await runPayouts(db(), shop.payments.stripe, { month, thresholdMinor: 1 })
    expect(held).toMatchObject({ held: 1, unconfirmed: 0, failed: 0 })
    expect(transfersTo(accountId)).toHaveLength(0)
    expect(await payoutsOf(creator.id)).toEqual([
      expect.objectContaining({ status: 'unconfirmed', amount_minor: 7600, attempts: 1 }),
    ])
    // Pro 5 %: 8000 → 7600, 10000 → 9500; all of it stays available, and the customer page says it waits.
    expect((await creatorBalances(db(), creator.id))[0]).toMatchObject({ availableMinor: 17_100, paidOutMinor: 0 })
    const page = await admin.admin.customers.find({ customer: creator.email })
    expect(page?.suspension?.heldEarnings).toEqual([{ currency: 'USD', amountMinor: 17_100 }])

    await admin.admin.customers.liftSuspension({ customerId: creator.id })
    await runPayouts(db(), shop.payments.stripe, { month, thresholdMinor: 1 })
    // The payout opened before is looked up and sent once; the month's row exists, so the rest waits for the next.
    expect(transfersTo(accountId).map((transfer) => transfer.amount)).toEqual([7600])
    const next = payoutMonthOf(new Date(Date.now() + 31 * DAY))
    await runPayouts(db(), shop.payments.stripe, { month: next, thresholdMinor: 1 })
    expect(transfersTo(accountId).map((transfer) => transfer.amount)).toEqual([7600, 9500])
    expect((await creatorBalances(db(), creator.id))[0]).toMatchObject({ availableMinor: 0, paidOutMinor: 17_100 })
  })
})
