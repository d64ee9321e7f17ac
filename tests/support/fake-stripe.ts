// A small local Stripe API for tests and development: Checkout Sessions create and retrieve with the real
// response shapes, a hosted checkout page whose Pay button completes the session, and webhook events signed
// with the SDK's own test-header helper. Point the SDK at it with STRIPE_API_URL.
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

export interface FakeStripe {
  url: string
  secretKey: string
  webhookSecret: string
  webhookUrl: string | null
  sessions: Map<string, Session>
  /** The parameters each session was created with, as the SDK encoded them (parsed back into objects). */
  createParams: Map<string, Record<string, Loose>>
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
  let failure: string | null = null

  const fake: FakeStripe = {
    url: '',
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    sessions,
    createParams,
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
  const total = items.reduce((sum, item) => sum + item.amount, 0)
  const sessionId = id('cs')
  lineItems.set(sessionId, items)
  const now = Math.floor(Date.now() / 1000)
  return {
    id: sessionId,
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
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
