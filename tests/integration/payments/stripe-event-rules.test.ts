// The money rules of the Stripe webhook that fulfilment's own idempotence would hide: only a paid (or trial) session
// fulfils, a replayed event is recognised as one, subscription states that end Premium end it, and a course is
// charged in its own currency. Each test fails when its rule is removed (found by mutation testing, issue 19).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { stripeSignatureHeader } from '../../../src-server/payments/stripe.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { formatMoney } from '../../../src-shared/money.ts'
import { createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { publishedCourse, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let database: DatabaseHandle
let fake: FakeStripe

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ database, fake } = shop)
})
afterAll(() => shop.close())

const db = () => database.db
const statusOf = async (orderId: string) =>
  (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status
const grantsOf = (userId: string) =>
  db().selectFrom('access_grants').select(['kind', 'order_id']).where('user_id', '=', userId).execute()

/** Posts one signed event as Stripe would; the webhook's answer (status and body). */
async function post(event: { payload: string; header: string }) {
  const response = await fetch(fake.webhookUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
    body: event.payload,
  })
  return { status: response.status, body: await response.json() }
}

/** A shopper with one course (or a monthly plan) in the cart who has started a card checkout in `currency`. */
async function cardCheckout(item: 'course' | 'plan', offset: number, currency: 'USD' | 'GBP' = 'USD') {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, shop.payments)
  const course = await publishedCourse(db(), offset)
  if (item === 'course') await caller.cart.add({ kind: 'course', courseId: course.id })
  else await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  const started = await caller.payments.start({ currency, method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  const sessionId = new URL(started.url).pathname.split('/').pop()!
  return { user, caller, course, orderId: started.orderId, sessionId }
}

describe('checkout.session.completed', () => {
  it('fulfils nothing while the session is unpaid, and records why', async () => {
    const { user, orderId, sessionId } = await cardCheckout('course', 20)
    const unpaid = fake.signedEvent('checkout.session.completed', fake.completeSession(sessionId, 'unpaid'))
    expect(await post(unpaid)).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } })
    expect(await statusOf(orderId)).toBe('pending')
    expect(await grantsOf(user.id)).toEqual([])
    const recorded = await db()
      .selectFrom('processed_stripe_events')
      .select(['type', 'outcome', 'reason'])
      .where('id', '=', unpaid.event.id)
      .executeTakeFirstOrThrow()
    expect(recorded).toEqual({ type: 'checkout.session.completed', outcome: 'ignored', reason: 'not_paid' })

    // A session still open is not paid either, whatever its payment status says.
    const open = { ...fake.completeSession(sessionId, 'paid'), status: 'open' }
    expect(await post(fake.signedEvent('checkout.session.completed', open))).toMatchObject({
      body: { outcome: 'ignored' },
    })
    expect(await statusOf(orderId)).toBe('pending')

    // The money arrives later: now it fulfils.
    const paid = fake.signedEvent('checkout.session.async_payment_succeeded', fake.completeSession(sessionId, 'paid'))
    expect(await post(paid)).toEqual({ status: 200, body: { received: true, outcome: 'processed' } })
    expect(await statusOf(orderId)).toBe('paid')
    expect(await grantsOf(user.id)).toEqual([{ kind: 'course', order_id: orderId }])
  })

  it('a subscription session with nothing to pay yet (the trial) makes the member Premium', async () => {
    const { user, orderId, sessionId } = await cardCheckout('plan', 0)
    const trial = fake.signedEvent('checkout.session.completed', fake.completeSession(sessionId, 'no_payment_required'))
    expect(await post(trial)).toMatchObject({ body: { outcome: 'processed' } })
    expect(await statusOf(orderId)).toBe('paid')
    expect(await isPremium(db(), user)).toBe(true)
  })

  it('a replayed event is answered as a duplicate and recorded once', async () => {
    const { orderId, sessionId } = await cardCheckout('course', 21)
    const event = fake.signedEvent('checkout.session.completed', fake.completeSession(sessionId))
    expect(await post(event)).toEqual({ status: 200, body: { received: true, outcome: 'processed' } })
    expect(await post(event)).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } })
    expect(await statusOf(orderId)).toBe('paid')
    const rows = await db()
      .selectFrom('processed_stripe_events')
      .select(['outcome', 'reason'])
      .where('id', '=', event.event.id)
      .execute()
    expect(rows).toEqual([{ outcome: 'processed', reason: null }])
  })

  it('a GBP course is charged in GBP, for its price in pence', async () => {
    const course = await publishedCourse(db(), 22)
    await db().updateTable('courses').set({ currency: 'GBP', price_minor: 3900 }).where('id', '=', course.id).execute()
    const { user, orderId, sessionId } = await cardCheckout('course', 22, 'GBP')
    const order = await db()
      .selectFrom('orders')
      .select(['currency', 'total_minor'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({ currency: 'GBP', total_minor: 3900 })
    const { detail } = await db()
      .selectFrom('order_items')
      .select('detail')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(fake.createParams.get(sessionId)!.line_items).toEqual([
      {
        quantity: '1',
        price_data: { currency: 'gbp', unit_amount: '3900', product_data: { name: course.title, description: detail } },
      },
    ])
    expect(fake.sessions.get(sessionId)).toMatchObject({ currency: 'gbp', amount_total: 3900 })
    expect(await post(fake.signedEvent('checkout.session.completed', fake.completeSession(sessionId)))).toMatchObject({
      body: { outcome: 'processed' },
    })
    const paid = await db()
      .selectFrom('orders')
      .select(['status', 'currency', 'captured_minor'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(paid).toEqual({ status: 'paid', currency: 'GBP', captured_minor: 3900 })
    expect(await grantsOf(user.id)).toEqual([{ kind: 'course', order_id: orderId }])
  })
})

describe('events the shop does not act on', () => {
  const recorded = (id: string) =>
    db()
      .selectFrom('processed_stripe_events')
      .select(['type', 'outcome', 'reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  it('an unhandled type, even one named like a property every object has, is acknowledged and ignored', async () => {
    for (const type of ['customer.created', 'constructor', 'toString']) {
      const event = fake.signedEvent(type, { id: 'cus_1', object: 'customer' })
      expect(await post(event)).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } })
      expect(await recorded(event.event.id)).toEqual({ type, outcome: 'ignored', reason: 'unhandled_type' })
    }
  })

  it('a signed body that is no event is named by its type (at most 255 characters), else "unknown"', async () => {
    for (const body of [{ type: 'x'.repeat(300) }, { type: '' }, { type: 42 }]) {
      const payload = JSON.stringify(body)
      const response = await post({ payload, header: stripeSignatureHeader(payload, fake.webhookSecret) })
      expect(response).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } })
    }
    const rows = await db()
      .selectFrom('processed_stripe_events')
      .select(['type', 'reason'])
      .where('id', 'like', 'unreadable_%')
      .orderBy('type')
      .execute()
    expect(rows).toEqual([
      { type: 'unknown', reason: 'malformed' },
      { type: 'unknown', reason: 'malformed' },
      { type: 'x'.repeat(255), reason: 'malformed' },
    ])
  })
})

describe('what Stripe took', () => {
  it('with Stripe Tax: the order records the amount taken and the tax within it, and the receipt says it', async () => {
    const { user, course, orderId, sessionId } = await cardCheckout('course', 23)
    const session = fake.completeSession(sessionId)
    const taken = course.price_minor + 780
    Object.assign(session, { amount_total: taken, total_details: { amount_tax: 780 } })
    expect(await post(fake.signedEvent('checkout.session.completed', session))).toMatchObject({
      body: { outcome: 'processed' },
    })
    const order = await db()
      .selectFrom('orders')
      .select(['status', 'total_minor', 'tax_minor', 'captured_minor', 'stripe_payment_intent_id'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({
      status: 'paid',
      total_minor: taken,
      tax_minor: 780,
      captured_minor: taken,
      stripe_payment_intent_id: session.payment_intent,
    })
    const receipt = await db()
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', user.email)
      .where('kind', '=', 'order_paid')
      .executeTakeFirstOrThrow()
    expect(receipt.text_body).toContain(`We have received your payment of ${formatMoney(taken, 'USD')} for order`)
  })

  it("without tax: the total stays the order's, and what was taken is recorded", async () => {
    const { course, orderId, sessionId } = await cardCheckout('course', 24)
    await post(fake.signedEvent('checkout.session.completed', fake.completeSession(sessionId)))
    const order = await db()
      .selectFrom('orders')
      .select(['total_minor', 'tax_minor', 'captured_minor'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({ total_minor: course.price_minor, tax_minor: 0, captured_minor: course.price_minor })
  })
})

describe('subscription updates', () => {
  async function premiumMember(offset: number) {
    const checkout = await cardCheckout('plan', offset)
    const session = fake.completeSession(checkout.sessionId, 'no_payment_required')
    await post(fake.signedEvent('checkout.session.completed', session))
    expect(await isPremium(db(), checkout.user)).toBe(true)
    return { ...checkout, subscriptionId: session.subscription as string }
  }

  it('an update to canceled ends Premium at once', async () => {
    const { user, caller, subscriptionId } = await premiumMember(0)
    const canceled = fake.signedEvent('customer.subscription.updated', {
      id: subscriptionId,
      object: 'subscription',
      status: 'canceled',
    })
    expect(await post(canceled)).toMatchObject({ body: { outcome: 'processed' } })
    expect(await isPremium(db(), user)).toBe(false)
    expect((await caller.purchases.entitlements()).isPremium).toBe(false)
    // It ended when Stripe says it did (the event's time), not when the webhook got round to it.
    const { ended_at } = await db()
      .selectFrom('subscriptions')
      .select('ended_at')
      .where('stripe_subscription_id', '=', subscriptionId)
      .executeTakeFirstOrThrow()
    expect(ended_at).toEqual(new Date(canceled.event.created * 1000))
  })

  it('an update to unpaid makes the plan past due, and Premium ends with the grace days after the period', async () => {
    const { user, caller, subscriptionId } = await premiumMember(0)
    const periodEnd = Math.floor(Date.now() / 1000) + 86_400
    const unpaid = {
      id: subscriptionId,
      object: 'subscription',
      status: 'unpaid',
      trial_end: null,
      items: { data: [{ current_period_end: periodEnd }] },
    }
    expect(await post(fake.signedEvent('customer.subscription.updated', unpaid))).toMatchObject({
      body: { outcome: 'processed' },
    })
    expect(await caller.purchases.entitlements()).toMatchObject({ plan: { status: 'past_due' } })
    expect(await isPremium(db(), user, new Date((periodEnd + 10 * 86_400) * 1000))).toBe(false)
  })
})
