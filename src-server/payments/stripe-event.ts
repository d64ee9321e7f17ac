// The Stripe edge: a signed webhook body becomes one typed value here, once. Its envelope (id, type, created) and
// its object are checked against the schema of its type (stripe-schemas.ts); everything below (tax-breakdown.ts,
// session-payment.ts, events.ts and the handlers) takes the typed value and never reads the raw event again.
// A signed body that is not JSON, has no usable envelope, or whose object does not fit its type is still keyed (so
// its redeliveries are recognised) and comes out as ignored: acknowledged and recorded, never applied.
import { createHash } from 'node:crypto'
import { z } from 'zod'
import {
  type CheckoutSession,
  chargeSchema,
  checkoutSessionSchema,
  connectedAccountSchema,
  disputeSchema,
  invoiceSchema,
  type StripeCharge,
  type StripeConnectedAccount,
  type StripeDispute,
  type StripeInvoice,
  type StripeSubscription,
  type StripeTransfer,
  subscriptionSchema,
  transferSchema,
} from './stripe-schemas.ts'

/** The event types the shop acts on, and which kind of object each carries. */
const HANDLED = {
  'checkout.session.completed': 'session',
  'checkout.session.async_payment_succeeded': 'session',
  'checkout.session.async_payment_failed': 'session',
  'checkout.session.expired': 'session',
  'charge.refunded': 'charge',
  'charge.dispute.created': 'dispute',
  'charge.dispute.closed': 'dispute',
  'customer.subscription.created': 'subscription',
  'customer.subscription.updated': 'subscription',
  'customer.subscription.deleted': 'subscription',
  'customer.subscription.trial_will_end': 'subscription',
  'invoice.paid': 'invoice',
  'invoice.payment_failed': 'invoice',
  'invoice.payment_action_required': 'invoice',
  // Connect: a creator's Express account changed; a payout transfer was reversed.
  'account.updated': 'account',
  'transfer.reversed': 'transfer',
} as const

type Handled = typeof HANDLED
export type HandledType = keyof Handled
type Kind = Handled[HandledType]

interface Objects {
  session: CheckoutSession
  charge: StripeCharge
  dispute: StripeDispute
  subscription: StripeSubscription
  invoice: StripeInvoice
  account: StripeConnectedAccount
  transfer: StripeTransfer
}

const OBJECT_SCHEMAS: { [K in Kind]: z.ZodType<Objects[K]> } = {
  session: checkoutSessionSchema,
  charge: chargeSchema,
  dispute: disputeSchema,
  subscription: subscriptionSchema,
  invoice: invoiceSchema,
  account: connectedAccountSchema,
  transfer: transferSchema,
}

/** The event types to enable on the Stripe webhook endpoint (README, "Real Stripe"). */
export const HANDLED_STRIPE_EVENTS = Object.keys(HANDLED) as HandledType[]

/** An event the shop acts on: its type, and its object as that type's schema reads it. */
export type TypedStripeEvent = {
  [T in HandledType]: { kind: Handled[T]; id: string; type: T; createdAt: Date; object: Objects[Handled[T]] }
}[HandledType]

/** A handled event of one kind (`EventOf<'session'>`: a Checkout Session event). */
export type EventOf<K extends Kind> = Extract<TypedStripeEvent, { kind: K }>

/** Acknowledged and recorded, never applied: not readable (or its object does not fit), or not a type we act on. */
export interface IgnoredStripeEvent {
  kind: 'ignored'
  id: string
  type: string
  createdAt: Date
  reason: 'malformed' | 'unhandled_type'
}

export type StripeEvent = TypedStripeEvent | IgnoredStripeEvent

/** Every event: which one, and its object (checked against the schema of its type below). */
const envelopeSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative().nullish(),
  data: z.object({ object: z.unknown() }),
})

/** A verified webhook body (the bytes Stripe signed). */
export function readStripeEvent(body: Buffer): StripeEvent {
  let payload: unknown
  try {
    payload = JSON.parse(body.toString('utf8'))
  } catch {
    payload = null // signed by Stripe, but not JSON: acknowledged, never applied
  }
  return parseStripeEvent(payload)
}

/** A Stripe event as parsed JSON (null when it was not JSON). */
export function parseStripeEvent(payload: unknown): StripeEvent {
  const envelope = envelopeSchema.safeParse(payload)
  if (!envelope.success)
    return { kind: 'ignored', ...unreadableEventKey(payload), createdAt: new Date(), reason: 'malformed' }
  const { id, type, created, data } = envelope.data
  const createdAt = created ? new Date(created * 1000) : new Date() // an event without one counts as now
  if (!Object.hasOwn(HANDLED, type)) return { kind: 'ignored', id, type, createdAt, reason: 'unhandled_type' }
  const kind = HANDLED[type as HandledType]
  const object = OBJECT_SCHEMAS[kind].safeParse(data.object)
  if (!object.success) return { kind: 'ignored', id, type, createdAt, reason: 'malformed' }
  return { kind, id, type, createdAt, object: object.data } as TypedStripeEvent
}

/** checkout.session.completed or async_payment_succeeded: a session Stripe says is paid (for) now. */
export function isPaidSessionEvent(event: StripeEvent): event is EventOf<'session'> {
  return (
    event.kind === 'session' &&
    (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded')
  )
}

/** An event without a usable id is keyed by its content, so its redeliveries are still recognised. */
function unreadableEventKey(payload: unknown): { id: string; type: string } {
  const digest = createHash('sha256')
    .update(JSON.stringify(payload) ?? 'undefined')
    .digest('hex')
  const type = (payload as { type?: unknown } | null)?.type
  return { id: `unreadable_${digest}`, type: typeof type === 'string' && type ? type.slice(0, 255) : 'unknown' }
}
