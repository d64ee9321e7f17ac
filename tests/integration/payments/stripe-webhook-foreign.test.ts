// Signed Stripe events the shop did not create (a Payment Link or another app on the same Stripe account) or cannot
// read: acknowledged with 2xx (so Stripe stops retrying), recorded as ignored with a reason, logged, and no order
// changes. A real checkout still fulfils exactly once. And the route's own answers and logs: not configured (503),
// unsigned (400), what an event asks of Stripe after it commits, and a failure of ours (500, so Stripe retries).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stripeSignatureHeader } from '../../../src-server/payments/stripe.ts'
import { createUser } from '../../support/factories.ts'
import { startTestServer } from '../../support/http.ts'
import { captureJsonLogs } from '../../support/json-logs.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { buyerWhoHadAPlan, publishedCourse, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
const { lines: logLines, stream: logStream } = captureJsonLogs()

beforeAll(async () => {
  shop = await startPaymentsServer({ logStream })
})
afterAll(() => shop.close())

const db = () => shop.database.db
const ordersSnapshot = () => db().selectFrom('orders').select(['id', 'status', 'updated_at']).orderBy('id').execute()
const recorded = (id: string) =>
  db()
    .selectFrom('processed_stripe_events')
    .select(['type', 'outcome', 'reason'])
    .where('id', '=', id)
    .executeTakeFirst()

/** Posts a body signed with the webhook secret, exactly as given. */
async function postSigned(payload: string): Promise<number> {
  const response = await fetch(shop.fake.webhookUrl!, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripeSignatureHeader(payload, shop.fake.webhookSecret),
    },
    body: payload,
  })
  return response.status
}

/** Signs an event around `object` and delivers it `times` times; returns the event id and the statuses. */
async function deliver(type: string, object: unknown, times = 1) {
  const { event, payload } = shop.fake.signedEvent(type, object)
  const statuses: number[] = []
  for (let i = 0; i < times; i++) statuses.push(await postSigned(payload))
  return { eventId: event.id, statuses }
}

/** The "event ignored" log lines of one event: their level (pino: 30 info, 40 warn) and reason. */
const ignoredLogs = (eventId: string) =>
  logLines
    .filter((line) => line.msg === 'stripe webhook event ignored' && line.eventId === eventId)
    .map((line) => ({ level: line.level, reason: line.reason }))

/** Posts `body` (as given) to a webhook URL; the status and the JSON answer. */
async function postRaw(url: string, headers: Record<string, string>, body?: string) {
  const response = await fetch(url, { method: 'POST', headers, ...(body === undefined ? {} : { body }) })
  return { status: response.status, body: await response.json() }
}

/** A completed, paid session as a Payment Link on the same account produces it. */
const paymentLinkSession = (overrides: Record<string, unknown> = {}) => ({
  id: `cs_test_plink_${Math.random().toString(36).slice(2)}`,
  object: 'checkout.session',
  mode: 'payment',
  status: 'complete',
  payment_status: 'paid',
  payment_link: 'plink_1Abc',
  client_reference_id: 'crm-customer-42',
  metadata: {},
  subscription: null,
  ...overrides,
})

async function startedCardCheckout(offset: number) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, shop.payments)
  await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), offset)).id })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  return { user, orderId: started.orderId, sessionId: new URL(started.url).pathname.split('/').pop()! }
}

describe('Stripe webhook: events that are not ours', () => {
  it('acknowledges a Payment Link checkout.session.completed, records and logs it as ignored, and touches no order', async () => {
    await startedCardCheckout(0)
    const before = await ordersSnapshot()
    const { eventId, statuses } = await deliver('checkout.session.completed', paymentLinkSession(), 3)
    expect(statuses).toEqual([200, 200, 200])
    expect(await recorded(eventId)).toEqual({
      type: 'checkout.session.completed',
      outcome: 'ignored',
      reason: 'not_ours',
    })
    expect(await ordersSnapshot()).toEqual(before)
    const logged = logLines.filter((line) => line.msg === 'stripe webhook event ignored' && line.eventId === eventId)
    expect(logged).toHaveLength(1) // the two redeliveries are duplicates, not ignored again
    expect(logged[0]).toMatchObject({ level: 40, reason: 'not_ours', type: 'checkout.session.completed' })
  })

  it('acknowledges sessions whose metadata.orderId or client_reference_id is not one of our orders', async () => {
    const before = await ordersSnapshot()
    const cases = [
      ['checkout.session.expired', { metadata: { orderId: 'order-from-another-app' }, status: 'expired' }],
      ['checkout.session.completed', { metadata: { orderId: crypto.randomUUID() } }],
      ['checkout.session.async_payment_failed', { client_reference_id: crypto.randomUUID() }],
      ['checkout.session.completed', { client_reference_id: null, metadata: null }],
    ] as const
    for (const [type, overrides] of cases) {
      const { eventId, statuses } = await deliver(type, paymentLinkSession(overrides))
      expect(statuses).toEqual([200])
      expect(await recorded(eventId)).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
    }
    expect(await ordersSnapshot()).toEqual(before)
  })

  it('does not pay our pending order from a session we did not open for it, even when it names the order', async () => {
    const { user, orderId } = await startedCardCheckout(1)
    const foreign = paymentLinkSession({ client_reference_id: orderId, metadata: { orderId } })
    const { eventId, statuses } = await deliver('checkout.session.completed', foreign)
    expect(statuses).toEqual([200])
    expect(await recorded(eventId)).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
    const order = await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()
    expect(order.status).toBe('pending')
    expect(
      await db()
        .selectFrom('access_grants')
        .where('kind', '=', 'course')
        .select('course_id')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([])
  })

  it('does not pay the order a session was opened for when the session names another order', async () => {
    const first = await startedCardCheckout(3)
    const second = await startedCardCheckout(4)
    // Our session id (stored on the first order), but its metadata and client_reference_id name the second.
    const session = {
      ...shop.fake.completeSession(first.sessionId),
      client_reference_id: second.orderId,
      metadata: { orderId: second.orderId },
    }
    const { eventId, statuses } = await deliver('checkout.session.completed', session)
    expect(statuses).toEqual([200])
    expect(await recorded(eventId)).toEqual({
      type: 'checkout.session.completed',
      outcome: 'ignored',
      reason: 'not_ours',
    })
    const statusOf = async (id: string) =>
      (await db().selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status
    expect([await statusOf(first.orderId), await statusOf(second.orderId)]).toEqual(['pending', 'pending'])
    expect(
      await db()
        .selectFrom('access_grants')
        .select('user_id')
        .where('user_id', 'in', [first.user.id, second.user.id])
        .execute(),
    ).toEqual([])
  })

  it('acknowledges a subscription event for a subscription this shop did not create', async () => {
    const subscription = { id: 'sub_test_elsewhere', object: 'subscription', status: 'active', trial_end: null }
    const { eventId, statuses } = await deliver('customer.subscription.updated', subscription)
    expect(statuses).toEqual([200])
    expect(await recorded(eventId)).toMatchObject({ outcome: 'ignored', reason: 'not_ours' })
  })
})

describe('Stripe webhook: payloads of unknown shape', () => {
  it('acknowledges events whose object does not fit and records them as ignored (malformed)', async () => {
    const before = await ordersSnapshot()
    const cases = [
      ['checkout.session.completed', { id: 42, status: 'complete', payment_status: 'paid' }],
      ['checkout.session.expired', 'not an object'],
      ['customer.subscription.updated', { id: 'sub_x', status: ['active'] }],
      ['customer.subscription.deleted', { id: 'sub_x', status: 'canceled', items: { data: 'none' } }],
    ] as const
    for (const [type, object] of cases) {
      const { eventId, statuses } = await deliver(type, object)
      expect(statuses).toEqual([200])
      expect(await recorded(eventId)).toEqual({ type, outcome: 'ignored', reason: 'malformed' })
      expect(ignoredLogs(eventId)).toEqual([{ level: 40, reason: 'malformed' }]) // a warning, like not ours
    }
    expect(await ordersSnapshot()).toEqual(before)
  })

  it('acknowledges a signed body that is not an event (no id, or not JSON) once, keyed by its content', async () => {
    for (const payload of ['{"type":"checkout.session.completed","data":{}}', 'not json at all']) {
      expect([await postSigned(payload), await postSigned(payload)]).toEqual([200, 200])
    }
    const rows = await db()
      .selectFrom('processed_stripe_events')
      .select(['id', 'type', 'outcome', 'reason'])
      .where('id', 'like', 'unreadable_%')
      .orderBy('type')
      .execute()
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
      { type: 'checkout.session.completed', outcome: 'ignored', reason: 'malformed' },
      { type: 'unknown', outcome: 'ignored', reason: 'malformed' },
    ])
  })

  it('still refuses an unsigned or wrongly signed body with 400 and records nothing', async () => {
    const count = async () => (await db().selectFrom('processed_stripe_events').select('id').execute()).length
    const before = await count()
    const session = paymentLinkSession()
    expect(await shop.fake.deliver('checkout.session.completed', session, 't=1,v1=deadbeef')).toBe(400)
    expect(await count()).toBe(before)
  })
})

describe('Stripe webhook: our own events', () => {
  it('a real completed session still fulfils exactly once and is recorded as processed', async () => {
    const { user, orderId, sessionId } = await startedCardCheckout(2)
    const session = shop.fake.completeSession(sessionId)
    const { eventId, statuses } = await deliver('checkout.session.completed', session, 3)
    expect(statuses).toEqual([200, 200, 200])
    expect(await recorded(eventId)).toEqual({ type: 'checkout.session.completed', outcome: 'processed', reason: null })
    expect(ignoredLogs(eventId)).toEqual([])
    const order = await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()
    expect(order.status).toBe('paid')
    const receipts = await db()
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', user.email)
      .where('kind', '=', 'order_paid')
      .execute()
    expect(receipts).toHaveLength(1)
    expect(
      await db()
        .selectFrom('access_grants')
        .where('kind', '=', 'course')
        .select('order_id')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([{ order_id: orderId }])
  })
})

describe('Stripe webhook: the route', () => {
  const signedHeaders = (payload: string) => ({
    'content-type': 'application/json',
    'stripe-signature': stripeSignatureHeader(payload, shop.fake.webhookSecret),
  })
  const processedCount = async () => (await db().selectFrom('processed_stripe_events').select('id').execute()).length

  it('answers 503 "not configured" on a server without STRIPE_WEBHOOK_SECRET, even to a well-signed event', async () => {
    const unconfigured = await startTestServer(db(), { payments: { ...shop.payments, stripeWebhookSecret: null } })
    try {
      const before = await processedCount()
      const { payload } = shop.fake.signedEvent('checkout.session.completed', paymentLinkSession())
      expect(await postRaw(`${unconfigured.baseUrl}/api/stripe/webhook`, signedHeaders(payload), payload)).toEqual({
        status: 503,
        body: { error: 'Stripe webhooks are not configured' },
      })
      expect(await processedCount()).toBe(before)
    } finally {
      await unconfigured.stop()
    }
  })

  it('answers 400 "Missing Stripe signature" without the header, or with it but no body', async () => {
    const before = await processedCount()
    const { payload, header } = shop.fake.signedEvent('checkout.session.completed', paymentLinkSession())
    const missing = { status: 400, body: { error: 'Missing Stripe signature' } }
    expect(await postRaw(shop.fake.webhookUrl!, { 'content-type': 'application/json' }, payload)).toEqual(missing)
    expect(await postRaw(shop.fake.webhookUrl!, { 'stripe-signature': header })).toEqual(missing)
    expect(await processedCount()).toBe(before)
  })

  it('answers 400 "Invalid Stripe signature" to a body signed with another secret or altered after signing', async () => {
    const before = await processedCount()
    const { payload } = shop.fake.signedEvent('checkout.session.completed', paymentLinkSession())
    const invalid = { status: 400, body: { error: 'Invalid Stripe signature' } }
    const otherSecret = stripeSignatureHeader(payload, 'whsec_someone_else')
    const headers = { 'content-type': 'application/json', 'stripe-signature': otherSecret }
    expect(await postRaw(shop.fake.webhookUrl!, headers, payload)).toEqual(invalid)
    expect(await postRaw(shop.fake.webhookUrl!, signedHeaders(payload), `${payload} `)).toEqual(invalid)
    expect(await processedCount()).toBe(before)
  })

  it('logs an event of a type the shop does not act on as ignored at info level, not as a warning', async () => {
    const { event, payload } = shop.fake.signedEvent('customer.created', { id: 'cus_test_x', object: 'customer' })
    expect(await postRaw(shop.fake.webhookUrl!, signedHeaders(payload), payload)).toEqual({
      status: 200,
      body: { received: true, outcome: 'ignored' },
    })
    expect(await recorded(event.id)).toEqual({ type: 'customer.created', outcome: 'ignored', reason: 'unhandled_type' })
    expect(ignoredLogs(event.id)).toEqual([{ level: 30, reason: 'unhandled_type' }])
  })

  it('answers 500 and logs an error when the event cannot be stored (not an outage: Stripe retries it)', async () => {
    // PostgreSQL cannot store a NUL character in text: recording the event id fails, and nothing is recorded.
    const before = await processedCount()
    const event = { id: 'evt_test_\u0000', object: 'event', type: 'customer.created', data: { object: {} } }
    const payload = JSON.stringify(event)
    expect(await postRaw(shop.fake.webhookUrl!, signedHeaders(payload), payload)).toEqual({
      status: 500,
      body: { error: 'Webhook processing failed' },
    })
    const failed = logLines.filter((line) => line.msg === 'stripe webhook failed')
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({ level: 50, err: { message: 'invalid byte sequence for encoding "UTF8": 0x00' } })
    expect(await processedCount()).toBe(before)
  })
})

describe('Stripe webhook: what a refunded plan asks of Stripe after the event', () => {
  /** A member who paid (no trial: they had a plan before) for a monthly plan by card, through the webhook. */
  async function paidPlan() {
    const user = await buyerWhoHadAPlan(db())
    const caller = await shopCaller(db(), user, shop.payments)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected a card checkout')
    const session = shop.fake.completeSession(new URL(started.url).pathname.split('/').pop()!)
    expect(await shop.fake.deliver('checkout.session.completed', session)).toBe(200)
    expect(new Set(await shop.fake.flush())).toEqual(new Set([200]))
    const order = await db()
      .selectFrom('orders')
      .select(['captured_minor', 'stripe_payment_intent_id'])
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow()
    const subscription = session.subscription!
    expect(shop.fake.billing.subscriptions.get(subscription)?.status).toBe('active')
    return {
      orderId: started.orderId,
      subscription,
      intent: order.stripe_payment_intent_id!,
      paid: order.captured_minor,
    }
  }

  /** Refunds the plan in full in the Stripe dashboard; the charge.refunded event, signed, for `url`. */
  function refundedInDashboard(plan: { intent: string; paid: number }) {
    shop.fake.dashboardRefund(plan.intent, plan.paid)
    return shop.fake.signedEvent('charge.refunded', shop.fake.chargeOf(plan.intent))
  }
  const orderStatus = async (orderId: string) =>
    (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status
  const cancelWarnings = (subscription: string) =>
    logLines.filter(
      (line) => line.msg === 'could not cancel a subscription at Stripe' && line.subscription === subscription,
    )
  const processed = { status: 200, body: { received: true, outcome: 'processed' } }

  it('cancels the subscription at Stripe once the refund is recorded', async () => {
    const plan = await paidPlan()
    const { payload, header } = refundedInDashboard(plan)
    const headers = { 'content-type': 'application/json', 'stripe-signature': header }
    expect(await postRaw(shop.fake.webhookUrl!, headers, payload)).toEqual(processed)
    expect(await orderStatus(plan.orderId)).toBe('refunded')
    expect(shop.fake.billing.subscriptions.get(plan.subscription)?.status).toBe('canceled')
    expect(cancelWarnings(plan.subscription)).toEqual([])
  })

  it('logs a cancel Stripe refuses as a warning and still acknowledges the event it recorded', async () => {
    const plan = await paidPlan()
    const { payload, header } = refundedInDashboard(plan)
    shop.fake.failNextCancel('This subscription cannot be canceled right now.')
    const headers = { 'content-type': 'application/json', 'stripe-signature': header }
    expect(await postRaw(shop.fake.webhookUrl!, headers, payload)).toEqual(processed)
    expect(await orderStatus(plan.orderId)).toBe('refunded')
    expect(shop.fake.billing.subscriptions.get(plan.subscription)?.status).toBe('active')
    const warnings = cancelWarnings(plan.subscription)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({
      level: 40,
      subscription: plan.subscription,
      err: { message: 'This subscription cannot be canceled right now.' },
    })
  })

  it('asks nothing of Stripe on a server that receives webhooks but has no Stripe API key', async () => {
    const plan = await paidPlan()
    const keyless = await startTestServer(db(), { payments: { ...shop.payments, stripe: null } })
    try {
      const { payload, header } = refundedInDashboard(plan)
      const headers = { 'content-type': 'application/json', 'stripe-signature': header }
      expect(await postRaw(`${keyless.baseUrl}/api/stripe/webhook`, headers, payload)).toEqual(processed)
      expect(await orderStatus(plan.orderId)).toBe('refunded')
      expect(shop.fake.billing.subscriptions.get(plan.subscription)?.status).toBe('active')
    } finally {
      await keyless.stop()
    }
  })
})
