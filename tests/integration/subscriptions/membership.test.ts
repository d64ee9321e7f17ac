// A member's subscription end to end against the real server, a real database and the fake Stripe with its test
// clock: the trial told truthfully, the first charge, a failed renewal (past due, one e-mail, Premium until the
// grace days end), cancel and resume, plan changes with the previewed proration, the portal, one trial per user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEMBERSHIP_MESSAGES } from '../../../src-server/flows/membership.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { CHANGE_QUOTE_MINUTES } from '../../../src-server/subscriptions/change-quotes.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { buyerWhoHadAPlan, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let database: DatabaseHandle
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => database.db
const DAY = 86_400

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ database, fake, payments } = shop)
})
afterAll(() => shop.close())

/** A member who paid a card checkout for the plan: Stripe's checkout and the events after it delivered. */
async function subscribe(planId: string, billingCycle: 'monthly' | 'annual', user?: TestUser) {
  const member = user ?? (await createUser(db()))
  const caller = await shopCaller(db(), member, payments)
  await caller.cart.add({ kind: 'plan', planId, billingCycle })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  const sessionId = new URL(started.url).pathname.split('/').pop()!
  const session = fake.completeSession(sessionId)
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  const subscription = fake.billing.subscriptions.get(session.subscription!)!
  return { member, caller, sessionId, subscription, orderId: started.orderId }
}

const mails = (user: TestUser, kind: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', user.email)
    .where('kind', '=', kind)
    .execute()

const row = (userId: string) =>
  db()
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow()

// The long day the membership sentences write: '2 December 2026' (formatDate, decision 0095).
const day = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  })

describe('a card membership', () => {
  it('trial: told truthfully, reminded once, then the first charge renews it from the period (not the trial end)', async () => {
    const { member, caller, subscription } = await subscribe('basic', 'monthly')
    const trialEnd = subscription.trial_end!
    expect(await caller.membership.get()).toMatchObject({
      planName: 'Basic',
      billingCycle: 'monthly',
      status: 'trialing',
      statusText: `Free trial until ${day(trialEnd)} — first charge of $9.99`,
      canCancel: true,
      canChangePlan: true,
      canManageBilling: true,
    })

    // trial_will_end 3 days before: one e-mail, however often Stripe sends it.
    await fake.advance(4 * DAY + 3600)
    expect(await mails(member, 'trial_ending')).toHaveLength(1)
    await fake.deliver('customer.subscription.trial_will_end', fake.billing.retrieve(subscription.id))
    expect(await mails(member, 'trial_ending')).toHaveLength(1)

    await fake.advance(3 * DAY)
    const renewed = fake.billing.retrieve(subscription.id)!
    const periodEnd = renewed.items.data[0]!.current_period_end
    expect(periodEnd).toBeGreaterThan(trialEnd + 27 * DAY)
    const after = await row(member.id)
    expect(after.status).toBe('active')
    expect(after.renews_at?.getTime()).toBe(periodEnd * 1000)
    expect((await caller.membership.get())?.statusText).toBe(`Active — renews on ${day(periodEnd)} for $9.99`)
    const invoices = await db()
      .selectFrom('subscription_invoices')
      .select(['amount_minor', 'billing_reason'])
      .where('user_id', '=', member.id)
      .orderBy('paid_at')
      .execute()
    expect(invoices).toEqual([
      { amount_minor: 0, billing_reason: 'subscription_create' },
      { amount_minor: 999, billing_reason: 'subscription_cycle' },
    ])
    const [history] = await caller.purchases.orders()
    expect(history?.subscription).toMatchObject({
      trialText: `Free trial started — first charge of $9.99 on ${day(trialEnd)}`,
      payments: [{ amountMinor: 999, currency: 'USD' }],
    })
    // The paid renewal's numbered invoice is listed under the plan's order (the $0 trial start has none).
    const numbered = await db()
      .selectFrom('invoices')
      .select(['id', 'number', 'total_minor'])
      .where('user_id', '=', member.id)
      .where('order_id', 'is', null)
      .execute()
    expect(numbered).toHaveLength(1)
    expect(numbered[0]!.total_minor).toBe(999)
    expect(history?.renewalInvoices).toEqual([{ id: numbered[0]!.id, number: numbered[0]!.number }])
  })

  it('a failed renewal: past due with one e-mail, Premium until the grace days end; a new card makes it active', async () => {
    const { member, caller, subscription } = await subscribe('pro', 'monthly')
    await fake.advance(8 * DAY) // the first charge, paid
    const paidThrough = fake.billing.retrieve(subscription.id)!.items.data[0]!.current_period_end
    fake.billing.failPayments(member.email)
    await fake.advance(paidThrough - fake.billing.now + 3600)
    expect((await caller.membership.get())?.statusText).toBe('Past due — update your card')
    const sent = await mails(member, 'payment_failed')
    expect(sent).toHaveLength(1)
    expect(sent[0]?.text_body).toContain('/account/membership')
    // The same failure again (a redelivery, or payment_action_required for the same invoice): no second e-mail.
    const invoice = fake.billing.invoices.get(fake.billing.retrieve(subscription.id)!.latest_invoice!)!
    await fake.deliver('invoice.payment_action_required', invoice)
    expect(await mails(member, 'payment_failed')).toHaveLength(1)

    expect(await isPremium(db(), member, new Date((paidThrough + 2 * DAY) * 1000))).toBe(true)
    expect(await isPremium(db(), member, new Date((paidThrough + 4 * DAY) * 1000))).toBe(false)

    fake.billing.payOpenInvoices(subscription.customer)
    await fake.flush()
    expect((await row(member.id)).status).toBe('active')
    expect(await isPremium(db(), member, new Date((paidThrough + 4 * DAY) * 1000))).toBe(true)
  })

  it('cancel at period end (Cancels on DATE, Premium ends exactly then), resume, cancel again and end', async () => {
    const { member, caller, subscription } = await subscribe('basic', 'annual')
    await fake.advance(8 * DAY)
    const periodEnd = fake.billing.retrieve(subscription.id)!.items.data[0]!.current_period_end
    await caller.membership.cancel({ reason: 'Too expensive' })
    expect(fake.billing.retrieve(subscription.id)).toMatchObject({
      cancel_at_period_end: true,
      cancellation_details: { comment: 'Too expensive' },
    })
    expect(await caller.membership.get()).toMatchObject({
      statusText: `Cancels on ${day(periodEnd)}`,
      canCancel: false,
      canResume: true,
    })
    expect(await isPremium(db(), member, new Date((periodEnd - 60) * 1000))).toBe(true)
    expect(await isPremium(db(), member, new Date((periodEnd + 60) * 1000))).toBe(false)

    await caller.membership.resume()
    expect(fake.billing.retrieve(subscription.id)?.cancel_at_period_end).toBe(false)
    expect((await caller.membership.get())?.statusText).toMatch(/^Active — renews on/)
    expect(await isPremium(db(), member, new Date((periodEnd + 60) * 1000))).toBe(true)

    await caller.membership.cancel({})
    await fake.advance(periodEnd - fake.billing.now + 60)
    expect((await caller.membership.get())?.statusText).toBe(`Cancelled on ${day(periodEnd)}`)
    expect(await isPremium(db(), member)).toBe(false)
    const grant = await db()
      .selectFrom('access_grants')
      .select(['revoked_reason', 'revoked_at'])
      .where('user_id', '=', member.id)
      .executeTakeFirstOrThrow()
    expect(grant).toEqual({ revoked_reason: 'cancellation', revoked_at: new Date(periodEnd * 1000) })

    // One free trial per user: the next subscription starts paid, and pricing says so.
    expect((await caller.purchases.entitlements()).trialAvailable).toBe(false)
    const again = await subscribe('pro', 'monthly', member)
    expect(fake.createParams.get(again.sessionId)?.subscription_data?.trial_period_days).toBeUndefined()
    expect(again.subscription.status).toBe('active')
    expect((await row(member.id)).status).toBe('active')
  })

  it('changes Basic → Pro: the preview shows the prorated amount, and the change charges exactly that', async () => {
    const { member, caller, subscription } = await subscribe('basic', 'monthly')
    await fake.advance(8 * DAY + 10 * DAY) // paid, and a third into the first paid month
    const preview = await caller.membership.previewChange({ planId: 'pro', billingCycle: 'monthly' })
    expect(preview).toMatchObject({ planName: 'Pro', currency: 'USD', newPriceMinor: 1999 })
    expect(preview.amountDueMinor).toBeGreaterThan(0)
    expect(preview.amountDueMinor).toBeLessThan(1999 - 999)
    await caller.membership.changePlan({ planId: 'pro', billingCycle: 'monthly', prorationDate: preview.prorationDate })
    expect(await caller.membership.get()).toMatchObject({ planId: 'pro', planName: 'Pro', amountMinor: 1999 })
    const charged = await db()
      .selectFrom('subscription_invoices')
      .select('amount_minor')
      .where('user_id', '=', member.id)
      .where('billing_reason', '=', 'subscription_update')
      .execute()
    expect(charged).toEqual([{ amount_minor: preview.amountDueMinor }])
    expect(fake.billing.retrieve(subscription.id)?.metadata).toMatchObject({ planId: 'pro', billingCycle: 'monthly' })
    await expect(caller.membership.previewChange({ planId: 'pro', billingCycle: 'monthly' })).rejects.toMatchObject({
      message: 'That is already your plan',
    })
    const { url } = await caller.membership.billingPortal()
    expect(url).toMatch(new RegExp(`^${fake.url}/portal/bps_`))
  })

  it('a change to annual in the free trial keeps the trial’s end as the first charge, and a cancel ends Premium then', async () => {
    const { caller, subscription } = await subscribe('basic', 'monthly')
    const trialEnd = subscription.trial_end!
    const preview = await caller.membership.previewChange({ planId: 'pro', billingCycle: 'annual' })
    expect(preview.amountDueMinor).toBe(0)
    await caller.membership.changePlan({ planId: 'pro', billingCycle: 'annual', prorationDate: preview.prorationDate })
    // Stripe keeps the billing cycle anchor at trial_end (the fake did not: it started a year from the change).
    expect(fake.billing.retrieve(subscription.id)?.items.data[0]?.current_period_end).toBe(trialEnd)
    expect(await caller.membership.get()).toMatchObject({
      planId: 'pro',
      status: 'trialing',
      statusText: `Free trial until ${day(trialEnd)} — first charge of $199.99`,
    })
    // /account/premium and the cancel dialog read the same day as the membership page.
    expect((await caller.purchases.entitlements()).renewsAt).toBe(new Date(trialEnd * 1000).toISOString())
    await caller.membership.cancel({})
    expect((await caller.membership.get())?.statusText).toBe(`Cancels on ${day(trialEnd)}`)
  })

  it('a plan change is prorated at the previewed moment only: another date, another plan or a stale preview is refused', async () => {
    const { member, caller, subscription } = await subscribe('basic', 'monthly')
    await fake.advance(8 * DAY + 10 * DAY) // paid, and a third into the first paid month
    const item = () => fake.billing.retrieve(subscription.id)!.items.data[0]!
    const { current_period_start: periodStart, current_period_end: periodEnd } = item()
    const reviewAgain = { code: 'CONFLICT', message: MEMBERSHIP_MESSAGES.reviewAgain }
    const preview = await caller.membership.previewChange({ planId: 'enterprise', billingCycle: 'monthly' })
    expect(preview.amountDueMinor).toBeGreaterThan(0)
    // A second before the period ends, an upgrade would cost nothing: refused, and Stripe is not asked to change.
    await expect(
      caller.membership.changePlan({ planId: 'enterprise', billingCycle: 'monthly', prorationDate: periodEnd - 1 }),
    ).rejects.toMatchObject(reviewAgain)
    // The preview's date with another plan than the one previewed.
    await expect(
      caller.membership.changePlan({ planId: 'pro', billingCycle: 'monthly', prorationDate: preview.prorationDate }),
    ).rejects.toMatchObject(reviewAgain)
    expect(item().price.unit_amount).toBe(999)

    // A preview confirmed after its minutes are over: shown again.
    await advanceClock((CHANGE_QUOTE_MINUTES + 1) * 60)
    try {
      await expect(
        caller.membership.changePlan({
          planId: 'enterprise',
          billingCycle: 'monthly',
          prorationDate: preview.prorationDate,
        }),
      ).rejects.toMatchObject(reviewAgain)
    } finally {
      resetClock()
    }

    // The preview confirmed in time: the member pays what it showed, once.
    const shown = await caller.membership.previewChange({ planId: 'enterprise', billingCycle: 'monthly' })
    await caller.membership.changePlan({
      planId: 'enterprise',
      billingCycle: 'monthly',
      prorationDate: shown.prorationDate,
    })
    const charged = await db()
      .selectFrom('subscription_invoices')
      .select('amount_minor')
      .where('user_id', '=', member.id)
      .where('billing_reason', '=', 'subscription_update')
      .execute()
    expect(charged).toEqual([{ amount_minor: shown.amountDueMinor }])

    // A downgrade prorated at the period's start would credit the whole period: refused too.
    await caller.membership.previewChange({ planId: 'basic', billingCycle: 'monthly' })
    await expect(
      caller.membership.changePlan({ planId: 'basic', billingCycle: 'monthly', prorationDate: periodStart }),
    ).rejects.toMatchObject(reviewAgain)
    expect(item().price.unit_amount).toBe(shown.newPriceMinor)
  })

  it('past due: no plan change (it would credit a period never paid) until the card is updated', async () => {
    const { member, caller, subscription } = await subscribe('pro', 'monthly')
    await fake.advance(8 * DAY) // the first charge, paid
    const pastDue = { code: 'PRECONDITION_FAILED', message: MEMBERSHIP_MESSAGES.pastDue }
    // Stripe knows of the failure before its webhook arrives here: refused already.
    const sub = fake.billing.subscriptions.get(subscription.id)!
    sub.status = 'past_due'
    try {
      await expect(caller.membership.previewChange({ planId: 'basic', billingCycle: 'monthly' })).rejects.toMatchObject(
        pastDue,
      )
    } finally {
      sub.status = 'active'
    }
    const paidThrough = fake.billing.retrieve(subscription.id)!.items.data[0]!.current_period_end
    fake.billing.failPayments(member.email)
    await fake.advance(paidThrough - fake.billing.now + 3600)
    expect(await caller.membership.get()).toMatchObject({
      status: 'past_due',
      canChangePlan: false,
      canManageBilling: true,
    })
    await expect(caller.membership.previewChange({ planId: 'basic', billingCycle: 'monthly' })).rejects.toMatchObject(
      pastDue,
    )
    await expect(
      caller.membership.changePlan({ planId: 'basic', billingCycle: 'monthly', prorationDate: fake.billing.now }),
    ).rejects.toMatchObject(pastDue)
    expect(fake.billing.retrieve(subscription.id)!.items.data[0]!.price.unit_amount).toBe(1999)

    // A new card pays what is open: the change is offered again.
    fake.billing.payOpenInvoices(subscription.customer)
    await fake.flush()
    expect(await caller.membership.get()).toMatchObject({ status: 'active', canChangePlan: true })
    expect(
      (await caller.membership.previewChange({ planId: 'basic', billingCycle: 'monthly' })).amountDueMinor,
    ).toBeGreaterThanOrEqual(0)
  })

  it('refuses a second plan: in the cart and at checkout, whatever the client sends', async () => {
    const { member, caller } = await subscribe('basic', 'monthly')
    await expect(caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'You already have a plan. Use Change plan on the pricing page to switch.',
    })
    // A plan that reached the cart anyway (put there before, or straight into the table) is refused at checkout.
    await db()
      .insertInto('cart_items')
      .values({ user_id: member.id, kind: 'plan', plan_id: 'pro', billing_cycle: 'annual' })
      .execute()
    await expect(caller.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'You already have a live plan. Use Change plan on the pricing page instead of buying another.',
    })
  })
})

describe('a member whose plan ended (issue 38)', () => {
  it('ended at Stripe (cancelled in its portal): Cancelled on DATE, Subscribe again, its invoices still listed', async () => {
    const { member, caller, subscription, orderId } = await subscribe('basic', 'monthly')
    await fake.advance(8 * DAY) // the first charge, paid: its invoice (the trial's checkout took nothing)
    const live = await caller.membership.get()
    expect(live?.canSubscribeAgain).toBe(false)
    expect(live?.invoices).toHaveLength(1)

    fake.billing.cancelNow(subscription.id)
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    const endedAt = fake.billing.retrieve(subscription.id)!.ended_at!
    const ended = await caller.membership.get()
    expect(ended).toMatchObject({
      planName: 'Basic',
      status: 'cancelled',
      endReason: 'cancellation',
      statusText: `Cancelled on ${day(endedAt)}`,
      canCancel: false,
      canResume: false,
      canChangePlan: false,
      canSubscribeAgain: true,
    })
    expect(ended?.invoices).toEqual(live?.invoices)
    expect(await isPremium(db(), member)).toBe(false)
    // Staff read the same words beside the order that started it.
    const admin = await createUser(db(), { role: 'admin' })
    const orders = await (await shopCaller(db(), admin, payments)).admin.orders.list({})
    expect(orders.items.find((order) => order.id === orderId)?.plan).toBe(`Basic plan — Cancelled on ${day(endedAt)}`)
  })

  it('lapsed after its payments failed: Ended on DATE — payment failed', async () => {
    const { member, caller, subscription } = await subscribe('pro', 'monthly')
    await fake.advance(8 * DAY) // the first charge, paid
    const paidThrough = fake.billing.retrieve(subscription.id)!.items.data[0]!.current_period_end
    fake.billing.failPayments(member.email)
    await fake.advance(paidThrough - fake.billing.now + 3600) // the renewal fails: past due
    const nextEnd = fake.billing.retrieve(subscription.id)!.items.data[0]!.current_period_end
    await fake.advance(nextEnd - fake.billing.now + 3600) // still unpaid at the next period: Stripe ends it
    const sub = fake.billing.retrieve(subscription.id)!
    expect(sub).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'payment_failed' } })
    expect(await caller.membership.get()).toMatchObject({
      status: 'cancelled',
      endReason: 'lapse',
      statusText: `Ended on ${day(sub.ended_at!)} — payment failed`,
      canSubscribeAgain: true,
    })
  })

  it('refunded by staff: Refunded on DATE, and the refunded invoice still listed', async () => {
    // A member who had a plan before: no second free trial, so the checkout charged the year.
    const { caller, orderId } = await subscribe('basic', 'annual', await buyerWhoHadAPlan(db()))
    const admin = await createUser(db(), { role: 'admin' })
    const before = Date.now()
    await (await shopCaller(db(), admin, payments)).admin.orders.refund({ orderId })
    const ended = await caller.membership.get()
    expect(ended).toMatchObject({ status: 'cancelled', endReason: 'refund', canSubscribeAgain: true })
    expect(new Date(ended!.endedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(ended?.statusText).toBe(`Refunded on ${day(new Date(ended!.endedAt!).getTime() / 1000)}`)
    expect(ended?.invoices).toHaveLength(1)
  })
})
