// A small local Stripe API for tests and development: Checkout Sessions create, retrieve and expire with the real
// response shapes, refunds (idempotency keys honoured, never more than captured), payment intents whose charge has a
// balance transaction with Stripe's fee, disputes with their chargeback fee, idempotency keys refused above
// Stripe's 255 characters, every API call remembered in order, Stripe Tax as a flat 20%, a
// hosted checkout page whose Pay button completes the session, and webhook events signed with the SDK's own
// test-header helper. Point the SDK at it with STRIPE_API_URL.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { stripeSignatureHeader } from '../../src-server/payments/stripe.ts'
import { couponAmount, createBilling, type FakeBilling, type FakeCoupon } from './fake-stripe-billing.ts'
import { createConnect, type FakeConnect } from './fake-stripe-connect.ts'

export interface FakeStripeOptions {
  port?: number
  host?: string
  secretKey?: string
  webhookSecret?: string
  /** Where the Pay button delivers checkout.session.completed. */
  webhookUrl?: string
}

/** A Checkout Session as Stripe returns it (the fields the fake fills in). */
type Session = {
  id: string
  object: 'checkout.session'
  mode: 'payment' | 'subscription'
  status: 'open' | 'complete' | 'expired'
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  url: string | null
  success_url: string | null
  cancel_url: string | null
  client_reference_id: string | null
  customer_email: string | null
  metadata: Record<string, string>
  subscription: string | null
  customer: string | null
  payment_intent: string | null
  /** Subscription mode: the first invoice, which the payment went through. */
  invoice: string | null
  currency: string | null
  amount_total: number | null
} & Record<string, unknown>
// biome-ignore lint/suspicious/noExplicitAny: decoded form params are free-form, like Stripe's own
type Loose = any
type LineItem = { name: string; amount: number; interval: string | null }
/** A refund as Stripe returns it (the fields the fake fills in). */
export type FakeRefund = {
  id: string
  object: 'refund'
  amount: number
  currency: string
  payment_intent: string
  status: 'succeeded'
  metadata: Record<string, string>
  created: number
}

export interface FakeStripe {
  url: string
  secretKey: string
  webhookSecret: string
  webhookUrl: string | null
  sessions: Map<string, Session>
  /** The parameters each session was created with, as the SDK encoded them (parsed back into objects). */
  createParams: Map<string, Record<string, Loose>>
  /** The Idempotency-Key each session was created with (Stripe answers a repeated key with the first session). */
  sessionKeys: Map<string, string | null>
  /** Refunds by id, and what each payment intent captured (its amount_total when paid). */
  refunds: Map<string, FakeRefund>
  /** The Idempotency-Key each API refund was created with (a repeated key answers with the first refund). */
  refundKeys: Map<string, string | null>
  captured: Map<string, { amount: number; currency: string }>
  /**
   * Subscription-mode payments: the payment intent each paid invoice went through (GET /v1/invoice_payments): the
   * first invoice's is the session's payment, a renewal's its own.
   */
  invoicePayments: Map<string, string>
  /** Sessions expired through the API (POST /v1/checkout/sessions/:id/expire), in order. */
  expiredThroughApi: string[]
  /** Every API call it was sent (/v1/…), as 'METHOD /path' without the query, oldest first. */
  calls: string[]
  /** A refund made in the Stripe dashboard: recorded like an API refund, without an idempotency key. */
  dashboardRefund(paymentIntentId: string, amount: number): FakeRefund
  /** The Charge object of a payment intent, as charge.refunded and disputes carry it. */
  chargeOf(paymentIntentId: string): Record<string, unknown>
  /**
   * A Dispute of the payment as Stripe's charge.dispute.* events carry it: its balance_transactions hold the
   * withdrawal and Stripe's chargeback fee (15.00 unless `fee` says otherwise).
   */
  disputeOf(
    paymentIntentId: string,
    status: string,
    amount: number,
    options?: { id?: string; fee?: number },
  ): Record<string, unknown>
  /** The next payment intent read (GET /v1/payment_intents/:id) answers 500, as in an outage; later ones run on. */
  failNextPaymentIntentRead(): void
  /** The next create call answers with this Stripe error. */
  failNextCreate(message?: string): void
  /** The next subscription cancel (DELETE /v1/subscriptions/:id) answers with this Stripe error; it runs on. */
  failNextCancel(message?: string): void
  /** The next subscription update (POST /v1/subscriptions/:id, e.g. cancel at the period's end) answers with this
   * Stripe error; it runs on. */
  failNextUpdate(message?: string): void
  /** Holds the next subscription update until `release()`: `reached` settles once it has arrived (a slow Stripe). */
  holdNextUpdate(): { reached: Promise<void>; release: () => void }
  /**
   * The next write to a customer (DELETE or POST /v1/customers/:id: an erasure, a new e-mail address) answers 500, as
   * in an outage; later ones run on.
   */
  failNextCustomerWrite(): void
  /** Marks a session paid as Stripe does when the customer pays (a subscription gets an id). */
  completeSession(id: string, paymentStatus?: Session['payment_status']): Session
  /** `created` defaults to the next tick of the test clock: every event is later than the one before. */
  signedEvent(
    type: string,
    object: unknown,
    created?: number,
    account?: string,
  ): { event: { id: string; type: string; created: number }; payload: string; header: string }
  /** Signs and POSTs an event to the webhook URL; returns the response status. */
  deliver(type: string, object: unknown, signature?: string): Promise<number>
  /** Subscriptions, invoices, previews, the portal and the test clock (fake-stripe-billing.ts). */
  billing: FakeBilling
  /** Connect: Express accounts, onboarding links, transfers, reversals, balance transactions (fake-stripe-connect.ts). */
  connect: FakeConnect
  /** The events billing and Connect queued (a renewal, an account update…), not delivered yet; a connected account's
   * events name it in `account`. */
  queued: { type: string; object: unknown; created: number; account?: string }[]
  /** Delivers the queued events in order; returns their statuses. */
  flush(): Promise<number[]>
  /** Advances the test clock by `seconds` and delivers what Stripe would have sent meanwhile. */
  advance(seconds: number): Promise<number[]>
  close(): Promise<void>
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`
/** A payment intent's one charge (the fake charges each payment once). */
const chargeIdOf = (paymentIntentId: string) => `ch_${paymentIntentId.slice(3)}`

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? 'sk_test_fake'
  const webhookSecret = options.webhookSecret ?? 'whsec_fake_secret'
  const sessions = new Map<string, Session>()
  const lineItems = new Map<string, LineItem[]>()
  const createParams = new Map<string, Record<string, Loose>>()
  const sessionKeys = new Map<string, string | null>()
  const sessionsByKey = new Map<string, { session: Session; body: string }>()
  const refunds = new Map<string, FakeRefund>()
  const captured = new Map<string, { amount: number; currency: string }>()
  const idempotent = new Map<string, FakeRefund>()
  const refundKeys = new Map<string, string | null>()
  const expiredThroughApi: string[] = []
  const calls: string[] = []
  const invoicePayments = new Map<string, string>()
  let failure: string | null = null
  let cancelFailure: string | null = null
  let updateFailure: string | null = null
  let updateHold: { arrived: () => void; released: Promise<void> } | null = null
  let customerWriteFailure = false
  let intentReadFailure = false
  let lastCreated = 0
  const tick = (at: number) => {
    lastCreated = Math.max(at, lastCreated + 1)
    return lastCreated
  }
  const queued: FakeStripe['queued'] = []
  const billing = createBilling(
    () => fake.url,
    (type, object, created) => queued.push({ type, object, created: tick(created) }),
    // A renewal is charged through a payment intent of its own, listed as the invoice's payment (invoice_payments).
    (invoice) => {
      const intent = id('pi')
      invoicePayments.set(invoice.id, intent)
      capture(intent, invoice.amount_paid, invoice.currency)
    },
  )
  const connected = createConnect(
    () => fake.url,
    (type, object, account) =>
      queued.push({ type, object, created: tick(billing.now), ...(account ? { account } : {}) }),
  )

  async function post(payload: string, header: string) {
    if (!fake.webhookUrl) throw new Error('fake Stripe has no webhook URL')
    const response = await fetch(fake.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    })
    return response.status
  }

  /** A card payment captured: Stripe's charge and its balance transaction (2.9 % + 30 fee, fake-stripe-connect.ts). */
  function capture(paymentIntentId: string, amount: number, currency: string) {
    captured.set(paymentIntentId, { amount, currency })
    connected.connect.recordCharge(chargeIdOf(paymentIntentId), amount, currency)
  }

  function refund(paymentIntentId: string, amount: number, metadata: Record<string, string> = {}): FakeRefund | string {
    const payment = captured.get(paymentIntentId)
    if (!payment) return `No such payment_intent: '${paymentIntentId}'`
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === paymentIntentId)
      .reduce((sum, r) => sum + r.amount, 0)
    if (amount <= 0 || refunded + amount > payment.amount) {
      return `Refund amount (${amount}) is greater than unrefunded amount on charge (${payment.amount - refunded})`
    }
    const created: FakeRefund = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: payment.currency,
      payment_intent: paymentIntentId,
      status: 'succeeded',
      metadata,
      created: Math.floor(Date.now() / 1000),
    }
    refunds.set(created.id, created)
    return created
  }

  const fake: FakeStripe = {
    billing,
    connect: connected.connect,
    queued,
    async flush() {
      const statuses: number[] = []
      while (queued.length) {
        const next = queued.shift()!
        const { payload, header } = fake.signedEvent(next.type, next.object, next.created, next.account)
        statuses.push(await post(payload, header))
      }
      return statuses
    },
    async advance(seconds) {
      billing.advance(seconds)
      return fake.flush()
    },
    url: '',
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    sessions,
    createParams,
    sessionKeys,
    refunds,
    refundKeys,
    captured,
    invoicePayments,
    expiredThroughApi,
    calls,
    dashboardRefund(paymentIntentId, amount) {
      const result = refund(paymentIntentId, amount)
      if (typeof result === 'string') throw new Error(result)
      return result
    },
    chargeOf(paymentIntentId) {
      const payment = captured.get(paymentIntentId)
      if (!payment) throw new Error(`No such payment_intent ${paymentIntentId}`)
      // Newest first, as Stripe lists them.
      const list = [...refunds.values()].filter((r) => r.payment_intent === paymentIntentId).reverse()
      const refunded = list.reduce((sum, r) => sum + r.amount, 0)
      const bt = connected.connect.recordCharge(chargeIdOf(paymentIntentId), payment.amount, payment.currency)
      return {
        id: chargeIdOf(paymentIntentId),
        object: 'charge',
        balance_transaction: bt.id,
        paid: true,
        status: 'succeeded',
        amount: payment.amount,
        amount_refunded: refunded,
        currency: payment.currency,
        payment_intent: paymentIntentId,
        refunded: refunded === payment.amount,
        refunds: { object: 'list', data: list },
      }
    },
    disputeOf(paymentIntentId, status, amount, options = {}) {
      const payment = captured.get(paymentIntentId)
      if (!payment) throw new Error(`No such payment_intent ${paymentIntentId}`)
      const disputeId = options.id ?? id('dp')
      const withdrawal = connected.connect.recordDispute(disputeId, amount, payment.currency, options.fee)
      return {
        id: disputeId,
        object: 'dispute',
        amount,
        balance_transactions: [withdrawal],
        charge: chargeIdOf(paymentIntentId),
        created: Math.floor(Date.now() / 1000),
        currency: payment.currency,
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: paymentIntentId,
        reason: 'fraudulent',
        status,
      }
    },
    failNextPaymentIntentRead() {
      intentReadFailure = true
    },
    failNextCreate(message = 'Your card was declined.') {
      failure = message
    },
    failNextCancel(message = 'This subscription cannot be canceled right now.') {
      cancelFailure = message
    },
    failNextUpdate(message = 'This subscription cannot be updated right now.') {
      updateFailure = message
    },
    holdNextUpdate() {
      let arrived = () => {}
      let release = () => {}
      const reached = new Promise<void>((resolve) => (arrived = resolve))
      updateHold = { arrived: () => arrived(), released: new Promise<void>((resolve) => (release = resolve)) }
      return { reached, release: () => release() }
    },
    failNextCustomerWrite() {
      customerWriteFailure = true
    },
    completeSession(sessionId, paymentStatus = 'paid') {
      const session = sessions.get(sessionId)
      if (!session) throw new Error(`No such session ${sessionId}`)
      session.status = 'complete'
      session.payment_status = paymentStatus
      if (session.mode === 'subscription' && !session.subscription) {
        const started = billing.startFromSession(createParams.get(sessionId) ?? {}, session.customer_email)
        session.subscription = started.subscription
        session.customer = started.customer
        session.invoice = billing.subscriptions.get(started.subscription)?.latest_invoice ?? null
        // Stripe pays a subscription checkout through its first invoice: the session names no payment intent.
        if (session.invoice && paymentStatus === 'paid' && (session.amount_total ?? 0) > 0) {
          const intent = id('pi')
          invoicePayments.set(session.invoice, intent)
          capture(intent, session.amount_total ?? 0, session.currency ?? 'usd')
        }
      }
      if (session.mode === 'payment' && !session.payment_intent) session.payment_intent = id('pi')
      if (session.payment_intent && paymentStatus === 'paid') {
        capture(session.payment_intent, session.amount_total ?? 0, session.currency ?? 'usd')
      }
      return session
    },
    signedEvent(type, object, created, account) {
      const event = {
        id: id('evt'),
        object: 'event',
        ...(account ? { account } : {}),
        api_version: '2025-10-29.clover',
        created: created ?? tick(billing.now),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      }
      const payload = JSON.stringify(event)
      const header = stripeSignatureHeader(payload, webhookSecret)
      return { event, payload, header }
    },
    async deliver(type, object, signature) {
      const { payload, header } = fake.signedEvent(type, object)
      return post(payload, signature ?? header)
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => send(response, 500, { error: { message: String(error) } }))
  })

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://fake')
    const body = await readBody(request)
    const sessionPath = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(url.pathname)
    const expirePath = /^\/v1\/checkout\/sessions\/([\w-]+)\/expire$/.exec(url.pathname)
    const payPath = /^\/pay\/([\w-]+)$/.exec(url.pathname)

    if (url.pathname.startsWith('/v1/')) calls.push(`${request.method} ${url.pathname}`)
    if (url.pathname.startsWith('/v1/') && request.headers.authorization !== `Bearer ${secretKey}`) {
      return send(response, 401, stripeError('Invalid API Key provided', 'invalid_request_error'))
    }
    // Stripe refuses an Idempotency-Key outside 1–255 characters before doing anything (400, idempotency_error).
    const idempotencyKey = request.headers['idempotency-key']
    if (typeof idempotencyKey === 'string' && (idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
      const message = `Idempotency key length is ${idempotencyKey.length}: keys must be 1 to 255 characters long.`
      return send(response, 400, stripeError(message, 'idempotency_error'))
    }
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (failure) {
        const message = failure
        failure = null
        return send(response, 402, stripeError(message, 'card_error'))
      }
      // Stripe's idempotency: the same key with the same parameters gives back the first answer; with others, an
      // idempotency_error.
      const key = request.headers['idempotency-key']
      const earlier = typeof key === 'string' ? sessionsByKey.get(key) : undefined
      if (earlier && earlier.body === body) return send(response, 200, earlier.session)
      if (earlier) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`
        return send(response, 400, stripeError(message, 'idempotency_error'))
      }
      const params = parseForm(body)
      const session = createSession(params, fake.url, lineItems, (couponId) => fake.billing.coupons.get(couponId))
      sessions.set(session.id, session)
      createParams.set(session.id, params)
      sessionKeys.set(session.id, typeof key === 'string' ? key : null)
      if (typeof key === 'string') sessionsByKey.set(key, { session, body })
      return send(response, 200, session)
    }
    if (request.method === 'POST' && expirePath) {
      const session = sessions.get(expirePath[1]!)
      if (!session) return send(response, 404, stripeError(`No such checkout.session: '${expirePath[1]}'`))
      if (session.status !== 'open') {
        const message = `Only Checkout Sessions with a status in [open] can be expired. This Checkout Session has a status of ${session.status}.`
        return send(response, 400, stripeError(message))
      }
      session.status = 'expired'
      session.url = null
      expiredThroughApi.push(session.id)
      return send(response, 200, session)
    }
    if (request.method === 'POST' && url.pathname === '/v1/refunds') {
      const key = request.headers['idempotency-key']
      const previous = typeof key === 'string' ? idempotent.get(key) : undefined
      if (previous) return send(response, 200, previous)
      const params = parseForm(body)
      const result = refund(String(params.payment_intent ?? ''), Number(params.amount ?? 0), params.metadata ?? {})
      if (typeof result === 'string') return send(response, 400, stripeError(result))
      refundKeys.set(result.id, typeof key === 'string' ? key : null)
      if (typeof key === 'string') idempotent.set(key, result)
      return send(response, 200, result)
    }
    if (request.method === 'GET' && sessionPath) {
      const session = sessions.get(sessionPath[1]!)
      if (!session) return send(response, 404, stripeError(`No such checkout.session: '${sessionPath[1]}'`))
      // total_details.breakdown only when asked for, as Stripe does (webhook events never carry it).
      const expand = [...url.searchParams].filter(([key]) => key.startsWith('expand')).map(([, value]) => value)
      if (!expand.includes('total_details.breakdown')) return send(response, 200, session)
      return send(response, 200, { ...session, total_details: withBreakdown(session.total_details) })
    }
    const intentPath = /^\/v1\/payment_intents\/([\w-]+)$/.exec(url.pathname)
    if (request.method === 'GET' && intentPath) {
      if (intentReadFailure) {
        intentReadFailure = false
        return send(response, 500, stripeError('An error occurred with our connection to Stripe.', 'api_error'))
      }
      const intentId = intentPath[1]!
      const payment = captured.get(intentId)
      if (!payment) return send(response, 404, stripeError(`No such payment_intent: '${intentId}'`))
      // latest_charge (and its balance_transaction) are ids unless expanded, as Stripe answers.
      const expand = [...url.searchParams].filter(([key]) => key.startsWith('expand')).map(([, value]) => value)
      const charge = fake.chargeOf(intentId) as { id: string; balance_transaction: string }
      const latestCharge = expand.some((path) => path.startsWith('latest_charge'))
        ? {
            ...charge,
            balance_transaction: expand.includes('latest_charge.balance_transaction')
              ? connected.connect.balanceTransactions.get(charge.balance_transaction)
              : charge.balance_transaction,
          }
        : charge.id
      return send(response, 200, {
        id: intentId,
        object: 'payment_intent',
        amount: payment.amount,
        amount_received: payment.amount,
        currency: payment.currency,
        latest_charge: latestCharge,
        livemode: false,
        metadata: {},
        status: 'succeeded',
      })
    }
    if (request.method === 'GET' && url.pathname === '/v1/invoice_payments') {
      // By invoice, or by the payment that paid it (payment[type]=payment_intent&payment[payment_intent]=pi_…).
      const byPayment = url.searchParams.get('payment[payment_intent]')
      const invoice = byPayment
        ? ([...invoicePayments].find(([, intent]) => intent === byPayment)?.[0] ?? '')
        : (url.searchParams.get('invoice') ?? '')
      const intent = invoicePayments.get(invoice)
      const data = intent
        ? [
            {
              id: id('inpay'),
              object: 'invoice_payment',
              invoice,
              status: 'paid',
              amount_paid: captured.get(intent)?.amount ?? 0,
              payment: { type: 'payment_intent', payment_intent: intent },
            },
          ]
        : []
      return send(response, 200, { object: 'list', data, has_more: false, url: '/v1/invoice_payments' })
    }
    if (payPath) {
      const session = sessions.get(payPath[1]!)
      if (!session) return send(response, 404, 'No such checkout session', 'text/plain')
      if (request.method === 'GET')
        return send(response, 200, checkoutPage(session, lineItems.get(session.id) ?? []), 'text/html')
      if (request.method === 'POST') {
        fake.completeSession(session.id)
        await fake.deliver('checkout.session.completed', session)
        await fake.flush()
        const location = (session.success_url ?? '/').replace('{CHECKOUT_SESSION_ID}', session.id)
        response.writeHead(303, { location })
        return response.end()
      }
    }
    if (request.method === 'DELETE' && cancelFailure && url.pathname.startsWith('/v1/subscriptions/')) {
      const message = cancelFailure
      cancelFailure = null
      return send(response, 400, stripeError(message))
    }
    if (request.method === 'POST' && updateHold && /^\/v1\/subscriptions\/[\w-]+$/.test(url.pathname)) {
      const hold = updateHold
      updateHold = null
      hold.arrived()
      await hold.released
    }
    if (request.method === 'POST' && updateFailure && /^\/v1\/subscriptions\/[\w-]+$/.test(url.pathname)) {
      const message = updateFailure
      updateFailure = null
      return send(response, 400, stripeError(message))
    }
    const customerWrite = request.method === 'DELETE' || request.method === 'POST'
    if (customerWrite && customerWriteFailure && /^\/v1\/customers\/[\w-]+$/.test(url.pathname)) {
      customerWriteFailure = false
      return send(response, 500, stripeError('An error occurred with our connection to Stripe.', 'api_error'))
    }
    const idempotencyHeader = typeof idempotencyKey === 'string' ? idempotencyKey : undefined
    const connectAnswer = connected.handle(request.method ?? 'GET', url, parseForm(body), idempotencyHeader)
    if (connectAnswer) return send(response, connectAnswer.status, connectAnswer.body, connectAnswer.type)
    const billed = await handleBilling(fake, request.method ?? 'GET', url, body)
    if (billed) return send(response, billed.status, billed.body, billed.type)
    return send(response, 404, stripeError(`Unrecognized request URL (${request.method}: ${url.pathname})`))
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve))
  const address = server.address() as AddressInfo
  fake.url = `http://${options.host ?? '127.0.0.1'}:${address.port}`
  return fake
}

/** The SDK sends form-encoded nested params: line_items[0][price_data][currency]=usd. */
export function parseForm(body: string): Record<string, Loose> {
  const root: Record<string, Loose> = {}
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[')
    let node: Loose = root
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value
        return
      }
      node[part] ??= /^\d+$/.test(parts[index + 1] ?? '') ? [] : {}
      node = node[part]
    })
  }
  return root
}

function createSession(
  params: Record<string, Loose>,
  baseUrl: string,
  lineItems: Map<string, LineItem[]>,
  couponOf: (id: string) => FakeCoupon | undefined,
): Session {
  const items: LineItem[] = (params.line_items ?? []).map((item: Loose) => ({
    name: item.price_data?.product_data?.name ?? 'Item',
    amount: Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1),
    interval: item.price_data?.recurring?.interval ?? null,
  }))
  // A subscription's free trial: Stripe charges its recurring prices nothing now (the first invoice bills only the
  // one-time lines); they are first charged when the trial ends.
  const trial = params.mode === 'subscription' && Number(params.subscription_data?.trial_period_days ?? 0) > 0
  const subtotal = items.reduce((sum, item) => sum + (trial && item.interval ? 0 : item.amount), 0)
  // A coupon (discounts[0][coupon]) takes its amount (or percentage) off the first payment.
  const coupon = params.discounts?.[0]?.coupon ? couponOf(params.discounts[0].coupon) : undefined
  const discount = coupon ? couponAmount(coupon, subtotal) : 0
  // Stripe Tax stand-in: 20% on top when automatic_tax is enabled.
  const tax = params.automatic_tax?.enabled === 'true' ? Math.round((subtotal - discount) * 0.2) : 0
  const total = subtotal - discount + tax
  const sessionId = id('cs')
  lineItems.set(sessionId, items)
  const now = Math.floor(Date.now() / 1000)
  return {
    id: sessionId,
    object: 'checkout.session',
    amount_subtotal: subtotal,
    amount_total: total,
    total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: tax },
    cancel_url: params.cancel_url ?? null,
    client_reference_id: params.client_reference_id ?? null,
    created: now,
    currency: params.line_items?.[0]?.price_data?.currency ?? 'usd',
    customer: null,
    customer_email: params.customer_email ?? null,
    expires_at: now + 24 * 3600,
    livemode: false,
    metadata: params.metadata ?? {},
    mode: params.mode ?? 'payment',
    payment_intent: null,
    invoice: null,
    payment_status: 'unpaid',
    status: 'open',
    subscription: null,
    success_url: params.success_url ?? null,
    url: `${baseUrl}/pay/${sessionId}`,
  }
}

/**
 * Stripe Tax's breakdown for the fake's flat 20%: a state tax of 15% and a city tax of the rest, so an invoice
 * shows one line per jurisdiction.
 */
function withBreakdown(details: unknown) {
  const totals = (details ?? {}) as { amount_tax?: number }
  const tax = totals.amount_tax ?? 0
  const state = Math.round((tax * 3) / 4)
  const rate = (display_name: string, jurisdiction: string, percentage: number) => ({
    id: id('txr'),
    object: 'tax_rate',
    display_name,
    jurisdiction,
    percentage,
    effective_percentage: percentage,
    country: 'US',
    state: 'CA',
    inclusive: false,
  })
  const taxes = tax
    ? [
        { amount: state, rate: rate('Sales Tax', 'California', 15), taxability_reason: 'standard_rated' },
        { amount: tax - state, rate: rate('City Tax', 'San Francisco', 5), taxability_reason: 'standard_rated' },
      ]
    : []
  return { ...totals, breakdown: { discounts: [], taxes } }
}

function checkoutPage(session: Session, items: LineItem[]): string {
  const money = (minor: number) => `${(session.currency ?? 'usd').toUpperCase()} ${(minor / 100).toFixed(2)}`
  const rows = items
    .map(
      (item) => `<li>${escapeHtml(item.name)}: ${money(item.amount)}${item.interval ? ` / ${item.interval}` : ''}</li>`,
    )
    .join('')
  return `<!doctype html><html><head><title>Fake Stripe Checkout</title></head><body>
<h1>Fake Stripe Checkout</h1><p>${escapeHtml(session.customer_email ?? '')}</p><ul>${rows}</ul>
<p>Total: ${money(session.amount_total ?? 0)}</p>
<form method="post" action="/pay/${session.id}"><button type="submit">Pay</button></form>
<a href="${escapeHtml(session.cancel_url ?? '/')}">Cancel</a></body></html>`
}

/** The billing API, the portal page and the test clock's controls; undefined when the path is not one of them. */
async function handleBilling(
  fake: FakeStripe,
  method: string,
  url: URL,
  body: string,
): Promise<{ status: number; body: unknown; type?: string } | undefined> {
  const { billing } = fake
  const params = parseForm(body)
  const customerPath = /^\/v1\/customers\/([\w-]+)$/.exec(url.pathname)
  if (customerPath && method === 'POST') {
    // Only the e-mail address is kept of what an update may change.
    const customer = billing.customers.get(customerPath[1]!)
    if (!customer) return noSuchCustomer(customerPath[1]!)
    if (typeof params.email === 'string') customer.email = params.email
    return { status: 200, body: { id: customer.id, object: 'customer', email: customer.email } }
  }
  if (customerPath && method === 'DELETE') {
    // Stripe's answer for a deleted customer; deleting it again is a 404 like any unknown id.
    const customerId = customerPath[1]!
    if (!billing.deleteCustomer(customerId)) return noSuchCustomer(customerId)
    // The subscriptions' customer.subscription.deleted is queued: the next flush delivers it.
    return { status: 200, body: { id: customerId, object: 'customer', deleted: true } }
  }
  const subPath = /^\/v1\/subscriptions\/([\w-]+)$/.exec(url.pathname)
  if (subPath && method === 'DELETE') {
    // Its customer.subscription.deleted is queued: the next flush delivers it (not from inside a webhook's call).
    const sub = billing.cancelNow(subPath[1]!)
    return sub
      ? { status: 200, body: sub }
      : { status: 404, body: stripeError(`No such subscription: '${subPath[1]}'`) }
  }
  if (subPath) {
    // As Stripe does: an ended subscription takes no change but its metadata and cancellation details.
    const ended = billing.retrieve(subPath[1]!)?.status === 'canceled'
    const changes = Object.keys(params).filter((key) => !['metadata', 'cancellation_details', 'expand'].includes(key))
    if (method === 'POST' && ended && changes.length > 0) {
      return {
        status: 400,
        body: stripeError('A canceled subscription can only update its cancellation_details and metadata.'),
      }
    }
    const sub = method === 'POST' ? billing.update(subPath[1]!, params) : billing.retrieve(subPath[1]!)
    if (method === 'POST') await fake.flush()
    return sub
      ? { status: 200, body: sub }
      : { status: 404, body: stripeError(`No such subscription: '${subPath[1]}'`) }
  }
  if (method === 'POST' && url.pathname === '/v1/invoices/create_preview') {
    const details = params.subscription_details ?? {}
    const preview = billing.preview(
      params.subscription,
      details.items?.[0]?.price_data ?? {},
      details.proration_date ? Number(details.proration_date) : billing.now,
    )
    return preview ? { status: 200, body: preview } : { status: 404, body: stripeError('No such subscription') }
  }
  if (method === 'GET' && url.pathname === '/v1/invoices') {
    const data = billing.invoicesOf(url.searchParams.get('customer') ?? '')
    return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/invoices' } }
  }
  if (method === 'POST' && url.pathname === '/v1/coupons') {
    const coupon = billing.createCoupon(params)
    return typeof coupon === 'string' ? { status: 400, body: stripeError(coupon) } : { status: 200, body: coupon }
  }
  if (method === 'POST' && url.pathname === '/v1/products') {
    const product = billing.createProduct(params)
    return product
      ? { status: 200, body: product }
      : {
          status: 400,
          body: {
            error: {
              message: 'Product already exists.',
              type: 'invalid_request_error',
              code: 'resource_already_exists',
            },
          },
        }
  }
  if (method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
    return { status: 200, body: billing.createPortalSession(params) }
  }
  const portal = /^\/portal\/([\w-]+)(\/card|\/cancel)?$/.exec(url.pathname)
  if (portal) {
    const session = billing.portalSession(portal[1]!)
    if (!session) return { status: 404, body: 'No such portal session', type: 'text/plain' }
    if (method === 'POST' && portal[2] === '/card') {
      billing.payOpenInvoices(session.customer)
      await fake.flush()
    }
    if (method === 'POST' && portal[2] === '/cancel') {
      // Stripe's portal can cancel a plan at once: customer.subscription.deleted follows.
      for (const sub of billing.liveSubscriptionsOf(session.customer)) billing.cancelNow(sub.id)
      await fake.flush()
    }
    return {
      status: 200,
      body: portalPage(portal[1]!, session.return_url, billing.invoicesOf(session.customer)),
      type: 'text/html',
    }
  }
  // Test controls (no API key: they stand for time passing and for the customer's bank).
  if (method === 'POST' && url.pathname === '/fake/clock/advance') {
    const statuses = await fake.advance(
      Number(url.searchParams.get('days') ?? 0) * 86_400 + Number(url.searchParams.get('seconds') ?? 0),
    )
    return { status: 200, body: { now: billing.now, delivered: statuses } }
  }
  if (method === 'POST' && url.pathname === '/fake/clock/reset') {
    billing.resetClock()
    return { status: 200, body: { now: billing.now } }
  }
  // A refund made in Stripe's dashboard of what is left of a payment (a renewal's, say), and its charge.refunded.
  if (method === 'POST' && url.pathname === '/fake/dashboard/refund') {
    const intent = url.searchParams.get('payment_intent') ?? ''
    if (!fake.captured.has(intent)) {
      return { status: 404, body: { error: { message: `No such payment_intent: '${intent}'` } } }
    }
    const charge = fake.chargeOf(intent) as { amount: number; amount_refunded: number }
    const refund = fake.dashboardRefund(intent, charge.amount - charge.amount_refunded)
    const status = await fake.deliver('charge.refunded', fake.chargeOf(intent))
    return { status: 200, body: { refund: refund.id, delivered: [status, ...(await fake.flush())] } }
  }
  if (method === 'POST' && url.pathname === '/fake/card') {
    const email = url.searchParams.get('email') ?? ''
    billing.failPayments(email, url.searchParams.get('fail') === '1')
    if (url.searchParams.has('backdate_days')) billing.backdate(email, Number(url.searchParams.get('backdate_days')))
    return { status: 200, body: { ok: true } }
  }
  return undefined
}

function portalPage(
  sessionId: string,
  returnUrl: string,
  invoices: { id: string; amount_due: number; currency: string; status: string }[],
) {
  const rows = invoices
    .map(
      (inv) =>
        `<li>${escapeHtml(inv.id)}: ${inv.currency.toUpperCase()} ${(inv.amount_due / 100).toFixed(2)} (${escapeHtml(inv.status)})</li>`,
    )
    .join('')
  return `<!doctype html><html><head><title>Fake Billing Portal</title></head><body>
<h1>Fake Billing Portal</h1><h2>Invoices</h2><ul>${rows}</ul>
<form method="post" action="/portal/${sessionId}/card"><button type="submit">Update card</button></form>
<form method="post" action="/portal/${sessionId}/cancel"><button type="submit">Cancel plan</button></form>
<a href="${escapeHtml(returnUrl)}">Return to the shop</a></body></html>`
}

function stripeError(message: string, type = 'invalid_request_error') {
  return { error: { message, type } }
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

function send(response: ServerResponse, status: number, body: unknown, type = 'application/json') {
  // An answer lost on the way (fake-stripe-connect.ts's loseNextTransferAnswer('reset')): the connection drops.
  if (type === 'reset') return response.destroy()
  // A hosted page's redirect (Connect onboarding's return and refresh URLs).
  if (type.startsWith('redirect:')) {
    response.writeHead(status, { location: type.slice('redirect:'.length) })
    return response.end()
  }
  response.writeHead(status, { 'content-type': type, 'request-id': id('req') })
  response.end(typeof body === 'string' ? body : JSON.stringify(body))
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = ''
    request.setEncoding('utf8')
    request.on('data', (chunk) => {
      data += chunk
    })
    request.on('end', () => resolve(data))
    request.on('error', reject)
  })
}

/** Stripe's answer for a customer id it does not know (never made, or deleted). */
function noSuchCustomer(customerId: string) {
  return {
    status: 404,
    body: {
      error: {
        message: `No such customer: '${customerId}'`,
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
      },
    },
  }
}
