// Checkout, Stripe webhooks and fulfilment against the real server, a real database and the local fake Stripe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cancelByStaff, confirmPaymentByStaff } from '../../../src-server/flows/staff-order-actions.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { readEnv } from '../../../src-server/kernel/env.ts'
import { listOrdersForStaff } from '../../../src-server/orders/repository.ts'
import { defaultPayments, type PaymentsConfig, paymentsFromEnv } from '../../../src-server/payments/config.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { CART_MESSAGES, PAYMENT_MESSAGES } from '../../../src-shared/cart.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt } from '../../support/race.ts'
import { publishedCourse, servicePackage, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let database: DatabaseHandle
let fake: FakeStripe
let payments: PaymentsConfig

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ database, fake, payments } = shop)
})
afterAll(() => shop.close())

const db = () => database.db
const order = (id: string) =>
  db()
    .selectFrom('orders')
    .select(['status', 'method', 'total_minor', 'currency'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
const receipts = async (user: TestUser) =>
  (
    await db()
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', user.email)
      .where('kind', '=', 'order_paid')
      .execute()
  ).length
const enrolments = (user: TestUser) =>
  db()
    .selectFrom('access_grants')
    .where('kind', '=', 'course')
    .select(['course_id', 'order_id'])
    .where('user_id', '=', user.id)
    .execute()
const cartKeys = async (user: TestUser) =>
  (await db().selectFrom('cart_items').select('item_key').where('user_id', '=', user.id).execute()).map(
    (r) => r.item_key,
  )

/** A shopper with one course in the cart who has started a card checkout. */
async function cardCheckout(offset = 0) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, payments)
  const course = await publishedCourse(db(), offset)
  await caller.cart.add({ kind: 'course', courseId: course.id })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  const sessionId = new URL(started.url).pathname.split('/').pop()!
  return { user, caller, course, started, sessionId }
}

describe('card checkout', () => {
  it('creates a pending order with the prices of that moment and a Stripe session in payment mode', async () => {
    const { user, course, started, sessionId } = await cardCheckout(0)
    expect(await order(started.orderId)).toEqual({
      status: 'pending',
      method: 'card',
      total_minor: course.price_minor,
      currency: 'USD',
    })
    const session = fake.sessions.get(sessionId)!
    expect(session).toMatchObject({
      mode: 'payment',
      customer_email: user.email,
      amount_total: course.price_minor,
      client_reference_id: started.orderId,
      success_url: 'http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/cart',
    })
    // A later price change does not touch the order's snapshot.
    await db().updateTable('courses').set({ price_minor: 1 }).where('id', '=', course.id).execute()
    const item = await db()
      .selectFrom('order_items')
      .select('unit_price_minor')
      .where('order_id', '=', started.orderId)
      .executeTakeFirstOrThrow()
    expect(item.unit_price_minor).toBe(course.price_minor)
    await db().updateTable('courses').set({ price_minor: course.price_minor }).where('id', '=', course.id).execute()
  })

  it('refuses a webhook with a bad or missing signature with 400 and changes nothing', async () => {
    const { user, started, sessionId } = await cardCheckout(1)
    const processedBefore = await db().selectFrom('processed_stripe_events').select('id').orderBy('id').execute()
    const session = fake.completeSession(sessionId)
    expect(await fake.deliver('checkout.session.completed', session, 't=1,v1=deadbeef')).toBe(400)
    const response = await fetch(fake.webhookUrl!, { method: 'POST', body: JSON.stringify({ id: 'evt_x' }) })
    expect(response.status).toBe(400)
    expect((await order(started.orderId)).status).toBe('pending')
    expect(await enrolments(user)).toHaveLength(0)
    expect(await db().selectFrom('processed_stripe_events').select('id').orderBy('id').execute()).toEqual(
      processedBefore,
    )
  })

  it('fulfils once when the same event is delivered 100 times, then 10 at once', async () => {
    const { user, course, started, sessionId } = await cardCheckout(2)
    const { payload, header } = fake.signedEvent('checkout.session.completed', fake.completeSession(sessionId))
    const post = () =>
      fetch(fake.webhookUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      }).then((r) => r.status)
    for (let i = 0; i < 100; i++) expect(await post()).toBe(200)
    expect(await Promise.all(Array.from({ length: 10 }, post))).toEqual(Array(10).fill(200))
    expect((await order(started.orderId)).status).toBe('paid')
    expect(await enrolments(user)).toEqual([{ course_id: course.id, order_id: started.orderId }])
    expect(await receipts(user)).toBe(1)
    expect(await cartKeys(user)).toEqual([])
  })

  raceIt('fulfils once when 10 deliveries of one event arrive at once on a fresh order', async () => {
    const { user, started, sessionId } = await cardCheckout(3)
    const { payload, header } = fake.signedEvent('checkout.session.completed', fake.completeSession(sessionId))
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(fake.webhookUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
          body: payload,
        }).then((r) => r.status),
      ),
    )
    expect(statuses).toEqual(Array(10).fill(200))
    expect((await order(started.orderId)).status).toBe('paid')
    expect(await receipts(user)).toBe(1)
    expect(await enrolments(user)).toHaveLength(1)
  })

  raceIt('fulfils once when the success page and several webhook events race', async () => {
    const { user, caller, started, sessionId } = await cardCheckout(4)
    const session = fake.completeSession(sessionId)
    const [confirmed, ...statuses] = await Promise.all([
      caller.payments.confirm({ sessionId }),
      fake.deliver('checkout.session.completed', session),
      fake.deliver('checkout.session.async_payment_succeeded', session),
      fake.deliver('checkout.session.completed', session),
    ])
    expect(confirmed).toMatchObject({ orderId: started.orderId, status: 'paid' })
    expect(statuses).toEqual([200, 200, 200])
    expect(await receipts(user)).toBe(1)
    expect(await enrolments(user)).toHaveLength(1)
    // The success page asked again later is a no-op.
    expect(await caller.payments.confirm({ sessionId })).toMatchObject({ status: 'paid' })
    expect(await receipts(user)).toBe(1)
  })

  it('does not fulfil from the success page while Stripe says unpaid, nor for another user', async () => {
    const { user, caller, started, sessionId } = await cardCheckout(5)
    expect(await caller.payments.confirm({ sessionId })).toMatchObject({ status: 'pending' })
    const stranger = await shopCaller(db(), await createUser(db()), payments)
    fake.completeSession(sessionId)
    await expect(stranger.payments.confirm({ sessionId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No payment session found',
    })
    expect((await order(started.orderId)).status).toBe('pending')
    expect(await enrolments(user)).toHaveLength(0)
  })

  it('makes the user Premium through a subscription session with the 7-day trial', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    const course = await publishedCourse(db(), 6)
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    expect((await caller.purchases.entitlements()).isPremium).toBe(false)

    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const sessionId = new URL(started.url).pathname.split('/').pop()!
    const session = fake.sessions.get(sessionId)!
    expect(session.mode).toBe('subscription')
    const params = fake.createParams.get(sessionId)!
    expect(params.subscription_data).toMatchObject({ trial_period_days: '7', metadata: { orderId: started.orderId } })
    const intervals = params.line_items.map(
      (item: { price_data: { recurring?: { interval: string } } }) => item.price_data.recurring?.interval ?? null,
    )
    expect(intervals.sort()).toEqual(['month', null].sort())
    // As Stripe does: the trial's plan is charged nothing now; the course is (decision 0089).
    expect(session.amount_total).toBe(course.price_minor)
    expect(await fake.deliver('checkout.session.completed', fake.completeSession(sessionId))).toBe(200)

    const entitlements = await caller.purchases.entitlements()
    expect(entitlements).toMatchObject({
      isPremium: true,
      plan: { id: 'pro', name: 'Pro', billingCycle: 'monthly', status: 'trialing' },
      courseIds: [course.id],
    })
    expect(await caller.cart.list()).toMatchObject({ count: 0 })
    expect((await caller.purchases.myCourses()).map((c) => c.id)).toEqual([course.id])

    // Cancelled in Stripe: no longer Premium.
    const subscriptionId = session.subscription as string
    await fake.deliver('customer.subscription.deleted', {
      id: subscriptionId,
      object: 'subscription',
      status: 'canceled',
    })
    expect((await caller.purchases.entitlements()).isPremium).toBe(false)
  })

  it('keeps a plan and a monthly service out of one checkout: each is its own subscription (decision 0136)', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    const seo = await servicePackage(db(), 'seo-management', 'Starter SEO Monthly')
    const audit = await servicePackage(db(), 'seo-audit', 'Essential Audit')
    const inCart = { code: 'CONFLICT', message: CART_MESSAGES.planWithService }
    // Refused in the cart, whichever comes first; a one-off service still goes beside a plan.
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    await expect(caller.cart.add({ kind: 'service_package', packageId: seo.id })).rejects.toMatchObject(inCart)
    await caller.cart.add({ kind: 'service_package', packageId: audit.id })
    await caller.cart.clear()
    await caller.cart.add({ kind: 'service_package', packageId: seo.id })
    await expect(caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'annual' })).rejects.toMatchObject(
      inCart,
    )
    expect(await cartKeys(user)).toEqual([`service_package:${seo.id}`])

    // A cart that holds both anyway (filled before this rule): refused at checkout by every method, before any order.
    await db()
      .insertInto('cart_items')
      .values({ user_id: user.id, kind: 'plan', plan_id: 'pro', billing_cycle: 'monthly' })
      .execute()
    const sessions = fake.sessions.size
    for (const method of ['card', 'paypal', 'bank_transfer'] as const) {
      await expect(caller.payments.start({ currency: 'USD', method })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: PAYMENT_MESSAGES.planWithService,
      })
    }
    expect(fake.sessions.size).toBe(sessions)
    expect(await db().selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toEqual([])

    // One after the other: the service pays its first month now, then the plan starts its trial on its own.
    await db().deleteFrom('cart_items').where('user_id', '=', user.id).where('kind', '=', 'plan').execute()
    const service = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (service.method !== 'card') throw new Error('expected card')
    const serviceSession = new URL(service.url).pathname.split('/').pop()!
    expect(fake.createParams.get(serviceSession)?.subscription_data?.trial_period_days).toBeUndefined()
    expect(fake.sessions.get(serviceSession)?.amount_total).toBe(seo.price_minor)
    expect(await fake.deliver('checkout.session.completed', fake.completeSession(serviceSession))).toBe(200)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const plan = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (plan.method !== 'card') throw new Error('expected card')
    const planSession = new URL(plan.url).pathname.split('/').pop()!
    expect(fake.createParams.get(planSession)).toMatchObject({ subscription_data: { trial_period_days: '7' } })
    expect(fake.createParams.get(planSession)?.line_items).toHaveLength(1)
    expect(await fake.deliver('checkout.session.completed', fake.completeSession(planSession))).toBe(200)
    const serviceSub = fake.sessions.get(serviceSession)?.subscription
    const planSub = fake.sessions.get(planSession)?.subscription
    expect(serviceSub).toBeTruthy()
    expect(planSub).toBeTruthy()
    expect(planSub).not.toBe(serviceSub)
    expect(await caller.purchases.entitlements()).toMatchObject({ plan: { id: 'pro', status: 'trialing' } })
  })

  it('refuses card checkout when Stripe is not configured, and reports Stripe failures', async () => {
    const user = await createUser(db())
    const noCard = await shopCaller(db(), user)
    await noCard.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), 7)).id })
    await expect(noCard.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    })
    const caller = await shopCaller(db(), user, payments)
    fake.failNextCreate()
    await expect(caller.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({
      message: 'Failed to create payment session',
    })
    const orders = await db().selectFrom('orders').select('status').where('user_id', '=', user.id).execute()
    expect(orders).toEqual([{ status: 'failed' }])
    expect(await cartKeys(user)).toHaveLength(1)
    await caller.cart.clear()
    await expect(caller.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({
      message: 'Your cart is empty',
    })
  })
})

describe('other Stripe events', () => {
  it('marks an order failed on async_payment_failed, and a later success still fulfils it once', async () => {
    const { user, started, sessionId } = await cardCheckout(8)
    const session = fake.sessions.get(sessionId)!
    expect(await fake.deliver('checkout.session.async_payment_failed', session)).toBe(200)
    expect((await order(started.orderId)).status).toBe('failed')
    expect(await fake.deliver('checkout.session.async_payment_succeeded', fake.completeSession(sessionId))).toBe(200)
    expect((await order(started.orderId)).status).toBe('paid')
    expect(await receipts(user)).toBe(1)
  })

  it('follows subscription updates from Stripe (renewal date and status)', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const sessionId = new URL(started.url).pathname.split('/').pop()!
    const session = fake.completeSession(sessionId, 'no_payment_required')
    await fake.deliver('checkout.session.completed', session)
    const renewal = Math.floor(Date.parse('2027-01-15T00:00:00Z') / 1000)
    const subscription = { id: session.subscription, object: 'subscription', status: 'active', trial_end: null }
    const updated = { ...subscription, items: { data: [{ current_period_end: renewal }] } }
    expect(await fake.deliver('customer.subscription.updated', updated)).toBe(200)
    expect(await caller.purchases.entitlements()).toMatchObject({
      isPremium: true,
      plan: { id: 'basic', status: 'active' },
      renewsAt: '2027-01-15T00:00:00.000Z',
    })
    // A failed renewal: past due, Premium until the paid period's end plus the grace days, then not.
    await fake.deliver('customer.subscription.updated', { ...updated, status: 'past_due' })
    expect(await caller.purchases.entitlements()).toMatchObject({ isPremium: true, plan: { status: 'past_due' } })
    expect(await isPremium(db(), user, new Date((renewal + 2 * 86_400) * 1000))).toBe(true)
    expect(await isPremium(db(), user, new Date((renewal + 4 * 86_400) * 1000))).toBe(false)
  })

  it('lists orders for staff with the customer e-mail, filtered by status', async () => {
    // Its own paid and pending orders, so the test holds alone and in any order.
    const { user, course, started, sessionId } = await cardCheckout(6)
    expect(await fake.deliver('checkout.session.completed', fake.completeSession(sessionId))).toBe(200)
    const pending = await cardCheckout(7)
    const paid = await listOrdersForStaff(db(), { status: 'paid' })
    expect(paid.find((row) => row.id === started.orderId)).toMatchObject({
      customerEmail: user.email,
      status: 'paid',
      method: 'card',
      currency: 'USD',
      totalMinor: course.price_minor,
    })
    expect(paid.map((row) => row.id)).not.toContain(pending.started.orderId)
    expect(paid.every((row) => row.status === 'paid')).toBe(true)
    const stillPending = await listOrdersForStaff(db(), { status: 'pending' })
    expect(stillPending.find((row) => row.id === pending.started.orderId)?.customerEmail).toBe(pending.user.email)
  })
})

describe('bank transfer and PayPal', () => {
  it('bank transfer: bank details and a prefixed reference; awaiting transfer and cart cleared; no fulfilment', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    const uk = await servicePackage(db(), 'uk-company-formation', 'Premium')
    await caller.cart.add({ kind: 'service_package', packageId: uk.id })
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'annual' })
    const started = await caller.payments.start({ currency: 'GBP', method: 'bank_transfer' })
    if (started.method !== 'bank_transfer') throw new Error('expected bank transfer')
    expect(started.reference).toMatch(/^SF-[0-9A-Z]+-[0-9A-F]{4}$/)
    const { bankName, accountName, accountNumber, sortCode, swiftCode } = defaultPayments.bank
    expect(started.bank).toEqual({ currency: 'GBP', bankName, accountName, accountNumber, sortCode, swiftCode })
    expect(started).toMatchObject({ totalMinor: 45_000, currency: 'GBP' })

    expect(await caller.payments.confirmBankTransfer({ orderId: started.orderId })).toMatchObject({
      status: 'awaiting_transfer',
    })
    expect((await order(started.orderId)).status).toBe('awaiting_transfer')
    expect(await cartKeys(user)).toEqual(['plan:basic']) // the USD plan was not part of this GBP order
    expect(await db().selectFrom('service_orders').select('id').where('user_id', '=', user.id).execute()).toHaveLength(
      0,
    )
    expect(await receipts(user)).toBe(0)

    // Staff confirm the transfer: fulfilled once, however often they click.
    const staff = await createUser(db(), { role: 'admin' })
    expect(await confirmPaymentByStaff(db(), started.orderId, staff)).toBe('fulfilled')
    expect(await confirmPaymentByStaff(db(), started.orderId, staff)).toBe('already_paid')
    expect(await receipts(user)).toBe(1)
    expect(await db().selectFrom('service_orders').select('id').where('user_id', '=', user.id).execute()).toHaveLength(
      1,
    )
    await expect(cancelByStaff(db(), started.orderId, staff)).rejects.toMatchObject({
      kind: 'invalid',
      message: 'A paid order cannot be cancelled',
    })
  })

  it('bank transfer details follow the currency: a sort code for GBP, a routing number for USD (from BANK_*)', async () => {
    const bank = paymentsFromEnv(
      readEnv({ BANK_SORT_CODE: '40-11-62', BANK_ROUTING_NUMBER: '021000021', BANK_ACCOUNT_NUMBER: '55779911' }),
    ).bank
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, { ...payments, bank })
    await caller.cart.add({
      kind: 'service_package',
      packageId: (await servicePackage(db(), 'uk-company-formation', 'Standard')).id,
    })
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })

    const gbp = await caller.payments.start({ currency: 'GBP', method: 'bank_transfer' })
    if (gbp.method !== 'bank_transfer') throw new Error('expected bank transfer')
    expect(gbp.bank).toMatchObject({ currency: 'GBP', sortCode: '40-11-62', accountNumber: '55779911' })
    expect(gbp.bank).not.toHaveProperty('routingNumber')
    expect(JSON.stringify(gbp)).not.toContain('021000021')

    const usd = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    if (usd.method !== 'bank_transfer') throw new Error('expected bank transfer')
    expect(usd.bank).toMatchObject({ currency: 'USD', routingNumber: '021000021', accountNumber: '55779911' })
    expect(usd.bank).not.toHaveProperty('sortCode')
    expect(JSON.stringify(usd)).not.toContain('40-11-62')
    for (const started of [gbp, usd]) {
      expect(started.bank).toMatchObject({
        bankName: bank.bankName,
        accountName: bank.accountName,
        swiftCode: bank.swiftCode,
      })
      expect(started.reference).toMatch(/^SF-[0-9A-Z]+-[0-9A-F]{4}$/)
    }
  })

  it('PayPal: the payment link with the total to two decimals; the order stays pending until staff act', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'enterprise', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    expect(started).toMatchObject({ method: 'paypal', url: 'https://paypal.me/skillforge/49.99USD' })
    expect((await order(started.orderId)).status).toBe('pending')
    expect((await caller.purchases.entitlements()).isPremium).toBe(false)
    // The cart empties when the PayPal order is created (the order page keeps the link and reference).
    expect(await cartKeys(user)).toEqual([])

    const staff = await createUser(db(), { role: 'admin' })
    await cancelByStaff(db(), started.orderId, staff)
    expect((await order(started.orderId)).status).toBe('cancelled')
    await expect(confirmPaymentByStaff(db(), started.orderId, staff)).rejects.toMatchObject({
      kind: 'invalid',
      message: 'A cancelled order cannot be marked as paid',
    })
    expect((await caller.purchases.entitlements()).isPremium).toBe(false)
    const history = await caller.purchases.orders()
    expect(history[0]!).toMatchObject({ method: 'paypal', status: 'cancelled', totalMinor: 4999, currency: 'USD' })
    expect(history[0]!.items).toEqual([
      {
        id: expect.any(String),
        kind: 'plan',
        title: 'Enterprise Plan',
        detail: 'Billed monthly',
        priceMinor: 4999,
        discountMinor: 0,
        freeTrial: false,
        courseId: null,
        bundleId: null,
        bundleTitle: null,
        refunded: false,
        refundRequest: null,
        gift: null,
      },
    ])
  })

  it('limits how many checkouts one user can start in a window', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    // Alternating rails: each start retires the cart's pending order and opens a new one.
    const rails = ['bank_transfer', 'card'] as const
    for (let i = 0; i < 20; i++) await caller.payments.start({ currency: 'USD', method: rails[i % 2]! })
    await expect(caller.payments.start({ currency: 'USD', method: 'bank_transfer' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many checkout attempts. Please wait a few minutes and try again.',
    })
    const orders = await db().selectFrom('orders').select('id').where('user_id', '=', user.id).execute()
    expect(orders).toHaveLength(20)
  })

  it('staff marking a PayPal plan order paid makes the user Premium for the billing period', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'annual' })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    await confirmPaymentByStaff(db(), started.orderId, await createUser(db(), { role: 'admin' }))
    const entitlements = await caller.purchases.entitlements()
    expect(entitlements).toMatchObject({ isPremium: true, plan: { id: 'basic', status: 'active' } })
    const days = (Date.parse(entitlements.renewsAt!) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(364)
    expect(await cartKeys(user)).toEqual([])
  })
})
