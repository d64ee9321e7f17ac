// A small local Stripe API for tests and development: Checkout Sessions create, retrieve and expire with the real
// response shapes, refunds (idempotency keys honoured, never more than captured), Stripe Tax as a flat 20%, a
// hosted checkout page whose Pay button completes the session, and webhook events signed with the SDK's own
// test-header helper. Point the SDK at it with STRIPE_API_URL.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { stripeSignatureHeader } from '../../src-server/payments/stripe.ts'

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
  payment_intent: string | null
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
  /** Refunds by id, and what each payment intent captured (its amount_total when paid). */
  refunds: Map<string, FakeRefund>
  captured: Map<string, { amount: number; currency: string }>
  /** Sessions expired through the API (POST /v1/checkout/sessions/:id/expire), in order. */
  expiredThroughApi: string[]
  /** A refund made in the Stripe dashboard: recorded like an API refund, without an idempotency key. */
  dashboardRefund(paymentIntentId: string, amount: number): FakeRefund
  /** The Charge object of a payment intent, as charge.refunded and disputes carry it. */
  chargeOf(paymentIntentId: string): Record<string, unknown>
  /** The next create call answers with this Stripe error. */
  failNextCreate(message?: string): void
  /** Marks a session paid as Stripe does when the customer pays (a subscription gets an id). */
  completeSession(id: string, paymentStatus?: Session['payment_status']): Session
  signedEvent(type: string, object: unknown): { event: { id: string; type: string }; payload: string; header: string }
  /** Signs and POSTs an event to the webhook URL; returns the response status. */
  deliver(type: string, object: unknown, signature?: string): Promise<number>
  close(): Promise<void>
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? 'sk_test_fake'
  const webhookSecret = options.webhookSecret ?? 'whsec_fake_secret'
  const sessions = new Map<string, Session>()
  const lineItems = new Map<string, LineItem[]>()
  const createParams = new Map<string, Record<string, Loose>>()
  const refunds = new Map<string, FakeRefund>()
  const captured = new Map<string, { amount: number; currency: string }>()
  const idempotent = new Map<string, FakeRefund>()
  const expiredThroughApi: string[] = []
  let failure: string | null = null

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
    url: '',
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    sessions,
    createParams,
    refunds,
    captured,
    expiredThroughApi,
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
      return {
        id: `ch_${paymentIntentId.slice(3)}`,
        object: 'charge',
        amount: payment.amount,
        amount_refunded: refunded,
        currency: payment.currency,
        payment_intent: paymentIntentId,
        refunded: refunded === payment.amount,
        refunds: { object: 'list', data: list },
      }
    },
    failNextCreate(message = 'Your card was declined.') {
      failure = message
    },
    completeSession(sessionId, paymentStatus = 'paid') {
      const session = sessions.get(sessionId)
      if (!session) throw new Error(`No such session ${sessionId}`)
      session.status = 'complete'
      session.payment_status = paymentStatus
      if (session.mode === 'subscription' && !session.subscription) session.subscription = id('sub')
      if (session.mode === 'payment' && !session.payment_intent) session.payment_intent = id('pi')
      if (session.payment_intent && paymentStatus === 'paid') {
        captured.set(session.payment_intent, { amount: session.amount_total ?? 0, currency: session.currency ?? 'usd' })
      }
      return session
    },
    signedEvent(type, object) {
      const event = {
        id: id('evt'),
        object: 'event',
        api_version: '2025-10-29.clover',
        created: Math.floor(Date.now() / 1000),
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
      if (!fake.webhookUrl) throw new Error('fake Stripe has no webhook URL')
      const { payload, header } = fake.signedEvent(type, object)
      const response = await fetch(fake.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature ?? header },
        body: payload,
      })
      return response.status
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

    if (url.pathname.startsWith('/v1/') && request.headers.authorization !== `Bearer ${secretKey}`) {
      return send(response, 401, stripeError('Invalid API Key provided', 'invalid_request_error'))
    }
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (failure) {
        const message = failure
        failure = null
        return send(response, 402, stripeError(message, 'card_error'))
      }
      const params = parseForm(body)
      const session = createSession(params, fake.url, lineItems)
      sessions.set(session.id, session)
      createParams.set(session.id, params)
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
      if (typeof key === 'string') idempotent.set(key, result)
      return send(response, 200, result)
    }
    if (request.method === 'GET' && sessionPath) {
      const session = sessions.get(sessionPath[1]!)
      if (!session) return send(response, 404, stripeError(`No such checkout.session: '${sessionPath[1]}'`))
      return send(response, 200, session)
    }
    if (payPath) {
      const session = sessions.get(payPath[1]!)
      if (!session) return send(response, 404, 'No such checkout session', 'text/plain')
      if (request.method === 'GET')
        return send(response, 200, checkoutPage(session, lineItems.get(session.id) ?? []), 'text/html')
      if (request.method === 'POST') {
        fake.completeSession(session.id)
        await fake.deliver('checkout.session.completed', session)
        const location = (session.success_url ?? '/').replace('{CHECKOUT_SESSION_ID}', session.id)
        response.writeHead(303, { location })
        return response.end()
      }
    }
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

function createSession(params: Record<string, Loose>, baseUrl: string, lineItems: Map<string, LineItem[]>): Session {
  const items: LineItem[] = (params.line_items ?? []).map((item: Loose) => ({
    name: item.price_data?.product_data?.name ?? 'Item',
    amount: Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1),
    interval: item.price_data?.recurring?.interval ?? null,
  }))
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0)
  // Stripe Tax stand-in: 20% on top when automatic_tax is enabled.
  const tax = params.automatic_tax?.enabled === 'true' ? Math.round(subtotal * 0.2) : 0
  const total = subtotal + tax
  const sessionId = id('cs')
  lineItems.set(sessionId, items)
  const now = Math.floor(Date.now() / 1000)
  return {
    id: sessionId,
    object: 'checkout.session',
    amount_subtotal: subtotal,
    amount_total: total,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: tax },
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
    payment_status: 'unpaid',
    status: 'open',
    subscription: null,
    success_url: params.success_url ?? null,
    url: `${baseUrl}/pay/${sessionId}`,
  }
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

function stripeError(message: string, type = 'invalid_request_error') {
  return { error: { message, type } }
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

function send(response: ServerResponse, status: number, body: unknown, type = 'application/json') {
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
