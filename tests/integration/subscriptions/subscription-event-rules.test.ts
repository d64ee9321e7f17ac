// The money and access rules of Stripe's subscription and invoice events (flows/stripe-subscription-events.ts) and of
// the member's own actions (flows/membership.ts), each with exact values: what a snapshot keeps or ends,
// a duplicate subscription stopped at Stripe, events that are not ours or not readable, the period an invoice paid,
// and what cancel, resume, a plan change and the portal refuse. Each test fails when its rule is removed (found by
// mutation testing, issue 19).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { MEMBERSHIP_MESSAGES } from '../../../src-server/flows/membership.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { defaultPayments } from '../../../src-server/payments/config.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { servicePackage, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let database: DatabaseHandle
let fake: FakeStripe

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ database, fake } = shop)
})
afterAll(() => shop.close())

const db = () => database.db
const DAY = 86_400
const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const at = (seconds: number) => new Date(seconds * 1000)

/** Posts one signed event as Stripe would; the webhook's answer body. */
async function post(type: string, object: unknown, created?: number) {
  const event = fake.signedEvent(type, object, created)
  const response = await fetch(fake.webhookUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
    body: event.payload,
  })
  expect(response.status).toBe(200)
  const recorded = await db()
    .selectFrom('processed_stripe_events')
    .select(['outcome', 'reason'])
    .where('id', '=', event.event.id)
    .executeTakeFirstOrThrow()
  return { ...recorded, created: event.event.created }
}

/** A member in the free trial of a monthly Basic plan bought by card (the session's event delivered). */
async function cardMember() {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, shop.payments)
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  const session = fake.completeSession(sessionIdOf(started.url), 'no_payment_required')
  expect(await post('checkout.session.completed', session)).toMatchObject({ outcome: 'processed' })
  return { user, caller, stripeId: session.subscription as string }
}

/** A member whose bank-transfer plan order staff marked paid: no Stripe subscription. */
async function bankMember() {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, shop.payments)
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  const order = await createFromCart(db(), {
    userId: user.id,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  await markPaid(db(), order.id, { source: 'staff', stripeSubscriptionId: null })
  return { user, caller }
}

/** A buyer of monthly SEO management by card: a Stripe subscription billing a recurring service order. */
async function serviceBuyer() {
  const buyer = await createUser(db())
  const caller = await shopCaller(db(), buyer, shop.payments)
  const pkg = await servicePackage(db(), 'seo-management', 'Starter SEO Monthly')
  await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
  const started = await caller.payments.start({ currency: pkg.currency as 'USD' | 'GBP', method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  const session = fake.completeSession(sessionIdOf(started.url))
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  await fake.flush()
  const [order] = await caller.serviceOrders.mine()
  return { buyer, stripeId: session.subscription as string, orderId: order!.id }
}

const subscriptionRow = (stripeId: string) =>
  db().selectFrom('subscriptions').selectAll().where('stripe_subscription_id', '=', stripeId).executeTakeFirstOrThrow()

const serviceOrder = (id: string) =>
  db().selectFrom('service_orders').select(['status', 'ends_at']).where('id', '=', id).executeTakeFirstOrThrow()

const mails = (user: TestUser, kind: string) =>
  db().selectFrom('mail_outbox').select('id').where('to_address', '=', user.email).where('kind', '=', kind).execute()

describe('a subscription snapshot', () => {
  it('takes the plan only with a known billing cycle', async () => {
    const { stripeId } = await cardMember()
    const unknownCycle = { id: stripeId, status: 'active', metadata: { planId: 'pro', billingCycle: 'weekly' } }
    expect(await post('customer.subscription.updated', unknownCycle)).toMatchObject({ outcome: 'processed' })
    expect(await subscriptionRow(stripeId)).toMatchObject({ plan_id: 'basic', billing_cycle: 'monthly' })
    const noCycle = { id: stripeId, status: 'active', metadata: { planId: 'pro' } }
    await post('customer.subscription.updated', noCycle)
    expect(await subscriptionRow(stripeId)).toMatchObject({ plan_id: 'basic', billing_cycle: 'monthly' })
    const noPlan = { id: stripeId, status: 'active', metadata: { billingCycle: 'annual' } }
    await post('customer.subscription.updated', noPlan)
    expect(await subscriptionRow(stripeId)).toMatchObject({ plan_id: 'basic', billing_cycle: 'monthly' })
    const known = { id: stripeId, status: 'active', metadata: { planId: 'pro', billingCycle: 'annual' } }
    await post('customer.subscription.updated', known)
    expect(await subscriptionRow(stripeId)).toMatchObject({ plan_id: 'pro', billing_cycle: 'annual', status: 'active' })
  })

  it("records the item's price in minor units with the currency upper-cased", async () => {
    const { stripeId } = await cardMember()
    const priced = {
      id: stripeId,
      status: 'active',
      items: { data: [{ id: 'si_1', price: { unit_amount: 1234, currency: 'gbp' } }] },
    }
    await post('customer.subscription.updated', priced)
    expect(await subscriptionRow(stripeId)).toMatchObject({ amount_minor: 1234, currency: 'GBP' })
  })

  it('an expanded customer object is recorded by its id', async () => {
    const { stripeId } = await cardMember()
    const expanded = { id: stripeId, status: 'active', customer: { id: 'cus_expanded_1', object: 'customer' } }
    expect(await post('customer.subscription.updated', expanded)).toMatchObject({ outcome: 'processed' })
    expect((await subscriptionRow(stripeId)).stripe_customer_id).toBe('cus_expanded_1')
  })

  it('deleted: canceled whatever status it names, ended at the event time, a cancellation', async () => {
    const { stripeId } = await cardMember()
    const { created } = await post('customer.subscription.deleted', { id: stripeId, status: 'active' })
    expect(await subscriptionRow(stripeId)).toMatchObject({
      stripe_status: 'canceled',
      status: 'cancelled',
      ended_at: at(created),
      end_reason: 'cancellation',
    })
  })

  it("deleted with Stripe's ended_at: ended then; a failed payment ends it as a lapse", async () => {
    const { stripeId } = await cardMember()
    const endedAt = Math.floor(Date.now() / 1000) - 5 * DAY
    const deleted = {
      id: stripeId,
      status: 'canceled',
      ended_at: endedAt,
      cancellation_details: { reason: 'payment_failed' },
    }
    await post('customer.subscription.deleted', deleted)
    expect(await subscriptionRow(stripeId)).toMatchObject({ ended_at: at(endedAt), end_reason: 'lapse' })
  })

  it('sends the trial-ending mail for trial_will_end only', async () => {
    const { user, stripeId } = await cardMember()
    const sub = fake.billing.retrieve(stripeId)!
    await post('customer.subscription.updated', sub)
    expect(await mails(user, 'trial_ending')).toHaveLength(0)
    await post('customer.subscription.trial_will_end', sub)
    expect(await mails(user, 'trial_ending')).toHaveLength(1)
  })
})

describe('a subscription billing a service order', () => {
  it('an update to a live status keeps the order; cancelling at the end sets its end from cancel_at, else the period end', async () => {
    const { stripeId, orderId } = await serviceBuyer()
    const periodEnd = Math.floor(Date.now() / 1000) + 20 * DAY
    const cancelAt = periodEnd - 3 * DAY
    const items = { data: [{ current_period_end: periodEnd }] }
    await post('customer.subscription.updated', { id: stripeId, status: 'active', items })
    expect(await serviceOrder(orderId)).toEqual({ status: 'brief_needed', ends_at: null })
    await post('customer.subscription.updated', {
      id: stripeId,
      status: 'active',
      items,
      cancel_at_period_end: true,
      cancel_at: cancelAt,
    })
    expect(await serviceOrder(orderId)).toEqual({ status: 'brief_needed', ends_at: at(cancelAt) })
    await post('customer.subscription.updated', { id: stripeId, status: 'active', items, cancel_at_period_end: true })
    expect(await serviceOrder(orderId)).toEqual({ status: 'brief_needed', ends_at: at(periodEnd) })
    await post('customer.subscription.updated', { id: stripeId, status: 'canceled', items })
    expect((await serviceOrder(orderId)).status).toBe('completed')
  })

  it('incomplete_expired, or an ended_at whatever the status, closes the order', async () => {
    const expired = await serviceBuyer()
    await post('customer.subscription.updated', { id: expired.stripeId, status: 'incomplete_expired' })
    expect((await serviceOrder(expired.orderId)).status).toBe('completed')
    const ended = await serviceBuyer()
    const endedAt = Math.floor(Date.now() / 1000)
    await post('customer.subscription.updated', { id: ended.stripeId, status: 'active', ended_at: endedAt })
    expect((await serviceOrder(ended.orderId)).status).toBe('completed')
  })
})

describe('a duplicate subscription', () => {
  async function duplicateMember() {
    const first = await cardMember()
    const second = await cardMember()
    const original = await subscriptionRow(first.stripeId)
    await db()
      .updateTable('subscriptions')
      .set({ duplicate_of: original.id })
      .where('stripe_subscription_id', '=', second.stripeId)
      .execute()
    return second
  }

  it('still live at Stripe: Stripe is asked to cancel it', async () => {
    const { stripeId } = await duplicateMember()
    expect(await post('customer.subscription.updated', { id: stripeId, status: 'active' })).toMatchObject({
      outcome: 'processed',
    })
    expect(fake.billing.retrieve(stripeId)?.status).toBe('canceled')
  })

  it('already ended at Stripe: nothing is asked', async () => {
    const { stripeId } = await duplicateMember()
    await post('customer.subscription.updated', { id: stripeId, status: 'canceled' })
    expect(fake.billing.retrieve(stripeId)?.status).toBe('trialing')
    await post('customer.subscription.deleted', { id: stripeId, status: 'active' })
    expect(fake.billing.retrieve(stripeId)?.status).toBe('trialing')
  })

  it('an invoice paid or failed for it asks Stripe to cancel it', async () => {
    const paid = await duplicateMember()
    const invoice = (stripeId: string) => ({
      id: `in_dup_${stripeId}`,
      subscription: stripeId,
      amount_paid: 999,
      period_end: Math.floor(Date.now() / 1000) + DAY,
    })
    await post('invoice.paid', invoice(paid.stripeId))
    expect(fake.billing.retrieve(paid.stripeId)?.status).toBe('canceled')
    const failed = await duplicateMember()
    await post('invoice.payment_failed', invoice(failed.stripeId))
    expect(fake.billing.retrieve(failed.stripeId)?.status).toBe('canceled')
  })
})

describe('events that are not ours or not readable', () => {
  const invoiceRows = (id: string) =>
    db().selectFrom('subscription_invoices').select('id').where('stripe_invoice_id', '=', id).execute()

  it('malformed subscription and invoice payloads are ignored as malformed', async () => {
    for (const type of ['customer.subscription.updated', 'invoice.paid', 'invoice.payment_failed']) {
      expect(await post(type, { id: 42 })).toMatchObject({ outcome: 'ignored', reason: 'malformed' })
    }
  })

  it('a subscription we have no record of, and no order of ours in its metadata, is not ours', async () => {
    const unknown = { id: 'sub_not_ours', status: 'active', metadata: { planId: 'pro', billingCycle: 'monthly' } }
    expect(await post('customer.subscription.updated', unknown)).toMatchObject({
      outcome: 'ignored',
      reason: 'not_ours',
    })
    const rows = await db()
      .selectFrom('subscriptions')
      .select('id')
      .where('stripe_subscription_id', '=', 'sub_not_ours')
      .execute()
    expect(rows).toEqual([])
  })

  it('an invoice without a subscription, or of one not ours, is not ours and records nothing', async () => {
    const end = Math.floor(Date.now() / 1000) + DAY
    const oneOff = { id: 'in_one_off', amount_paid: 500, period_end: end }
    const foreign = { id: 'in_foreign', subscription: 'sub_foreign', amount_paid: 500, period_end: end }
    for (const type of ['invoice.paid', 'invoice.payment_failed']) {
      expect(await post(type, oneOff)).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
      expect(await post(type, foreign)).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
    }
    expect(await invoiceRows('in_one_off')).toEqual([])
    expect(await invoiceRows('in_foreign')).toEqual([])
  })

  it('a paid invoice of ours without any period end is malformed', async () => {
    const { stripeId } = await cardMember()
    const invoice = { id: 'in_no_period', subscription: stripeId, amount_paid: 999 }
    expect(await post('invoice.paid', invoice)).toMatchObject({ outcome: 'ignored', reason: 'malformed' })
    expect(await post('invoice.payment_failed', invoice)).toMatchObject({ outcome: 'ignored', reason: 'malformed' })
    expect(await invoiceRows('in_no_period')).toEqual([])
  })
})

describe('an event that overtakes checkout.session.completed', () => {
  /** A card order whose Stripe session was created but whose checkout event has not arrived. */
  async function pendingCardOrder() {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, shop.payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected a card checkout')
    return db()
      .selectFrom('orders')
      .select(['id', 'reference'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
  }
  const orderStatus = async (id: string) =>
    (await db().selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
  const subscriptionsOf = (stripeId: string) =>
    db().selectFrom('subscriptions').select('id').where('stripe_subscription_id', '=', stripeId).execute()

  it('pays the order its metadata names only when the reference matches and the order exists', async () => {
    const order = await pendingCardOrder()
    const wrongReference = {
      id: 'sub_early_wrong',
      status: 'active',
      metadata: { orderId: order.id, reference: 'SF-0' },
    }
    expect(await post('customer.subscription.updated', wrongReference)).toMatchObject({
      outcome: 'ignored',
      reason: 'not_ours',
    })
    expect(await orderStatus(order.id)).toBe('pending')
    expect(await subscriptionsOf('sub_early_wrong')).toEqual([])
    const missing = { orderId: '00000000-0000-4000-8000-000000000000', reference: order.reference }
    expect(
      await post('customer.subscription.updated', { id: 'sub_early_missing', status: 'active', metadata: missing }),
    ).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
    const matching = {
      id: 'sub_early_ok',
      status: 'active',
      metadata: { orderId: order.id, reference: order.reference },
    }
    expect(await post('customer.subscription.updated', matching)).toMatchObject({ outcome: 'processed' })
    expect(await orderStatus(order.id)).toBe('paid')
    expect(await subscriptionsOf('sub_early_ok')).toHaveLength(1)
  })

  it('an incomplete subscription pays nothing; an unpaid one is live and pays the order', async () => {
    const order = await pendingCardOrder()
    const metadata = { orderId: order.id, reference: order.reference }
    expect(
      await post('customer.subscription.updated', { id: 'sub_early_incomplete', status: 'incomplete', metadata }),
    ).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
    expect(await orderStatus(order.id)).toBe('pending')
    expect(
      await post('customer.subscription.updated', { id: 'sub_early_unpaid', status: 'unpaid', metadata }),
    ).toMatchObject({ outcome: 'processed' })
    expect(await orderStatus(order.id)).toBe('paid')
    expect((await subscriptionRow('sub_early_unpaid')).status).toBe('past_due')
  })

  it('an invoice naming no subscription pays no order, even with the order in its metadata', async () => {
    const order = await pendingCardOrder()
    const end = Math.floor(Date.now() / 1000) + DAY
    const invoice = {
      id: 'in_no_subscription',
      amount_paid: 999,
      period_end: end,
      parent: { subscription_details: { metadata: { orderId: order.id, reference: order.reference } } },
    }
    for (const type of ['invoice.paid', 'invoice.payment_failed']) {
      expect(await post(type, invoice)).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
      expect(await orderStatus(order.id)).toBe('pending')
    }
  })
})

describe('invoice.paid', () => {
  const recorded = (id: string) =>
    db()
      .selectFrom('subscription_invoices')
      .select(['amount_minor', 'currency', 'period_start', 'period_end', 'paid_at'])
      .where('stripe_invoice_id', '=', id)
      .executeTakeFirstOrThrow()

  it("records the lines' earliest start and latest end, the currency upper-cased and Stripe's paid time", async () => {
    const { stripeId } = await cardMember()
    const now = Math.floor(Date.now() / 1000)
    const invoice = {
      id: 'in_lines',
      subscription: stripeId,
      amount_paid: 1999,
      currency: 'eur',
      period_start: now - 60 * DAY,
      period_end: now - 30 * DAY,
      lines: {
        data: [
          { period: { start: now + DAY, end: now + 31 * DAY } },
          { period: { start: now, end: now + 30 * DAY } },
          {},
        ],
      },
      status_transitions: { paid_at: now - 100 },
    }
    expect(await post('invoice.paid', invoice)).toMatchObject({ outcome: 'processed' })
    expect(await recorded('in_lines')).toEqual({
      amount_minor: 1999,
      currency: 'EUR',
      period_start: at(now),
      period_end: at(now + 31 * DAY),
      paid_at: at(now - 100),
    })
    expect((await subscriptionRow(stripeId)).paid_through).toEqual(at(now + 31 * DAY))
  })

  it("without lines: the invoice's own period, in USD, paid at the event time", async () => {
    const { stripeId } = await cardMember()
    const now = Math.floor(Date.now() / 1000)
    const invoice = {
      id: 'in_plain',
      subscription: stripeId,
      amount_paid: 999,
      period_start: now,
      period_end: now + DAY,
    }
    const { created } = await post('invoice.paid', invoice)
    expect(await recorded('in_plain')).toEqual({
      amount_minor: 999,
      currency: 'USD',
      period_start: at(now),
      period_end: at(now + DAY),
      paid_at: at(created),
    })
  })

  it('an invoice of a service subscription without any period opens no period', async () => {
    const { stripeId, orderId } = await serviceBuyer()
    const invoice = { id: 'in_service_no_period', subscription: stripeId, amount_paid: 5000 }
    expect(await post('invoice.paid', invoice)).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
    const periods = await db()
      .selectFrom('service_order_periods')
      .select('id')
      .where('service_order_id', '=', orderId)
      .where('stripe_invoice_id', '=', 'in_service_no_period')
      .execute()
    expect(periods).toEqual([])
  })

  it("opens a service order's period from the invoice lines", async () => {
    const { stripeId, orderId } = await serviceBuyer()
    const now = Math.floor(Date.now() / 1000)
    const invoice = {
      id: 'in_service_lines',
      subscription: stripeId,
      amount_paid: 5000,
      lines: { data: [{ period: { start: now + 40 * DAY, end: now + 70 * DAY } }] },
    }
    expect(await post('invoice.paid', invoice)).toMatchObject({ outcome: 'processed' })
    const period = await db()
      .selectFrom('service_order_periods')
      .select(['starts_at', 'ends_at'])
      .where('service_order_id', '=', orderId)
      .where('stripe_invoice_id', '=', 'in_service_lines')
      .executeTakeFirstOrThrow()
    expect(period).toEqual({ starts_at: at(now + 40 * DAY), ends_at: at(now + 70 * DAY) })
  })
})

describe('invoice.payment_failed', () => {
  it('records the period it failed for and makes the membership past due', async () => {
    const { stripeId } = await cardMember()
    const end = Math.floor(Date.now() / 1000) + 30 * DAY
    const invoice = { id: 'in_failed_period', subscription: stripeId, amount_due: 999, period_end: end }
    expect(await post('invoice.payment_failed', invoice)).toMatchObject({ outcome: 'processed' })
    expect(await subscriptionRow(stripeId)).toMatchObject({ failed_through: at(end), status: 'past_due' })
  })
})

describe('membership actions', () => {
  it('without a live membership: not found, for cancel, resume and a plan change', async () => {
    const caller = await shopCaller(db(), await createUser(db()), shop.payments)
    const none = { code: 'NOT_FOUND', message: MEMBERSHIP_MESSAGES.none }
    await expect(caller.membership.cancel({})).rejects.toMatchObject(none)
    await expect(caller.membership.resume()).rejects.toMatchObject(none)
    await expect(caller.membership.previewChange({ planId: 'pro', billingCycle: 'monthly' })).rejects.toMatchObject(
      none,
    )
    await expect(caller.membership.billingPortal()).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: MEMBERSHIP_MESSAGES.cardOnly,
    })
  })

  it('a card membership on a store without Stripe: not configured', async () => {
    const { user } = await cardMember()
    const caller = await shopCaller(db(), user, { ...defaultPayments, stripe: null })
    const notConfigured = { code: 'PRECONDITION_FAILED', message: MEMBERSHIP_MESSAGES.notConfigured }
    await expect(caller.membership.cancel({})).rejects.toMatchObject(notConfigured)
    await expect(caller.membership.resume()).rejects.toMatchObject(notConfigured)
    await expect(caller.membership.previewChange({ planId: 'pro', billingCycle: 'monthly' })).rejects.toMatchObject(
      notConfigured,
    )
  })

  it('a bank-transfer membership is cancelled and resumed here, and refuses plan changes and the portal', async () => {
    const { user, caller } = await bankMember()
    const row = () =>
      db()
        .selectFrom('subscriptions')
        .select(['cancel_at_period_end', 'cancel_reason'])
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow()
    await caller.membership.cancel({ reason: 'Moving on' })
    expect(await row()).toEqual({ cancel_at_period_end: true, cancel_reason: 'Moving on' })
    await caller.membership.resume()
    expect(await row()).toEqual({ cancel_at_period_end: false, cancel_reason: null })
    const cardOnly = { code: 'PRECONDITION_FAILED', message: MEMBERSHIP_MESSAGES.cardOnly }
    await expect(caller.membership.previewChange({ planId: 'pro', billingCycle: 'monthly' })).rejects.toMatchObject(
      cardOnly,
    )
    await expect(caller.membership.billingPortal()).rejects.toMatchObject(cardOnly)
  })

  it('a plan change: refused for the same plan and cycle or an unknown plan; the other cycle is a change', async () => {
    const { caller } = await cardMember()
    await expect(caller.membership.previewChange({ planId: 'basic', billingCycle: 'monthly' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: MEMBERSHIP_MESSAGES.samePlan,
    })
    await expect(
      caller.membership.previewChange({ planId: 'no-such-plan', billingCycle: 'monthly' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Plan not found' })
    expect(await caller.membership.previewChange({ planId: 'basic', billingCycle: 'annual' })).toMatchObject({
      planId: 'basic',
      billingCycle: 'annual',
    })
  })

  it('a Stripe subscription without an item: refused before any change is asked of Stripe', async () => {
    const { caller, stripeId } = await cardMember()
    const sub = fake.billing.subscriptions.get(stripeId)!
    const items = sub.items
    Reflect.deleteProperty(sub, 'items')
    const before = fake.calls.length
    try {
      await expect(caller.membership.previewChange({ planId: 'pro', billingCycle: 'monthly' })).rejects.toMatchObject({
        code: 'BAD_GATEWAY',
        message: MEMBERSHIP_MESSAGES.stripeFailed,
      })
      sub.items = { ...items, data: [] }
      await expect(
        caller.membership.changePlan({ planId: 'pro', billingCycle: 'monthly', prorationDate: fake.billing.now }),
      ).rejects.toMatchObject({ code: 'BAD_GATEWAY', message: MEMBERSHIP_MESSAGES.stripeFailed })
      expect(fake.calls.slice(before)).toEqual([
        `GET /v1/subscriptions/${stripeId}`,
        `GET /v1/subscriptions/${stripeId}`,
      ])
    } finally {
      sub.items = items
    }
  })

  it('Stripe failing: cancel, resume and a plan change answer Stripe failed and change nothing', async () => {
    const { caller, stripeId } = await cardMember()
    const row = async () => {
      const { status, cancel_at_period_end, cancel_reason, plan_id, billing_cycle } = await subscriptionRow(stripeId)
      return { status, cancel_at_period_end, cancel_reason, plan_id, billing_cycle }
    }
    const unchanged = {
      status: 'trialing',
      cancel_at_period_end: false,
      cancel_reason: null,
      plan_id: 'basic',
      billing_cycle: 'monthly',
    }
    expect(await row()).toEqual(unchanged)
    // Stripe no longer knows the subscription: every call about it answers 404.
    const sub = fake.billing.subscriptions.get(stripeId)!
    fake.billing.subscriptions.delete(stripeId)
    const failed = { code: 'BAD_GATEWAY', message: MEMBERSHIP_MESSAGES.stripeFailed }
    try {
      await expect(caller.membership.cancel({ reason: 'Too expensive' })).rejects.toMatchObject(failed)
      await expect(caller.membership.resume()).rejects.toMatchObject(failed)
      await expect(
        caller.membership.changePlan({ planId: 'pro', billingCycle: 'annual', prorationDate: fake.billing.now }),
      ).rejects.toMatchObject(failed)
    } finally {
      fake.billing.subscriptions.set(stripeId, sub)
    }
    expect(await row()).toEqual(unchanged)
    expect(sub).toMatchObject({ cancel_at_period_end: false, metadata: { planId: 'basic', billingCycle: 'monthly' } })
  })

  it("Stripe's answer is applied at once, before its webhook events arrive", async () => {
    const { caller, stripeId } = await cardMember()
    const row = async () => {
      const { cancel_at_period_end, plan_id, billing_cycle } = await subscriptionRow(stripeId)
      return { cancel_at_period_end, plan_id, billing_cycle }
    }
    const webhookUrl = fake.webhookUrl
    // The events Stripe sends about each change go nowhere (answered 404) until the end of the test.
    fake.webhookUrl = `${webhookUrl}-delayed`
    try {
      await caller.membership.cancel({ reason: 'Too expensive' })
      expect(await row()).toEqual({ cancel_at_period_end: true, plan_id: 'basic', billing_cycle: 'monthly' })
      await caller.membership.resume()
      expect(await row()).toEqual({ cancel_at_period_end: false, plan_id: 'basic', billing_cycle: 'monthly' })
      const preview = await caller.membership.previewChange({ planId: 'pro', billingCycle: 'annual' })
      await caller.membership.changePlan({
        planId: 'pro',
        billingCycle: 'annual',
        prorationDate: preview.prorationDate,
      })
      expect(await row()).toEqual({ cancel_at_period_end: false, plan_id: 'pro', billing_cycle: 'annual' })
    } finally {
      fake.webhookUrl = webhookUrl
    }
  })

  it("the change sends Stripe the plan's product, the cycle's price and its interval", async () => {
    const { caller, stripeId } = await cardMember()
    const plan = await db().selectFrom('plans').selectAll().where('id', '=', 'pro').executeTakeFirstOrThrow()
    const annual = await caller.membership.previewChange({ planId: 'pro', billingCycle: 'annual' })
    expect(annual.newPriceMinor).toBe(plan.annual_price_minor)
    await caller.membership.changePlan({ planId: 'pro', billingCycle: 'annual', prorationDate: annual.prorationDate })
    expect(fake.billing.retrieve(stripeId)!.items.data[0]!.price).toMatchObject({
      product: 'plan_pro',
      unit_amount: plan.annual_price_minor,
      recurring: { interval: 'year' },
    })
    const monthly = await caller.membership.previewChange({ planId: 'pro', billingCycle: 'monthly' })
    expect(monthly.newPriceMinor).toBe(plan.monthly_price_minor)
    await caller.membership.changePlan({ planId: 'pro', billingCycle: 'monthly', prorationDate: monthly.prorationDate })
    expect(fake.billing.retrieve(stripeId)!.items.data[0]!.price).toMatchObject({
      product: 'plan_pro',
      unit_amount: plan.monthly_price_minor,
      recurring: { interval: 'month' },
    })
  })
})
