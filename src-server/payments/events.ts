// Applies a verified Stripe event exactly once: the event id is recorded in the same transaction that changes the
// order (a redelivery finds it and stops), and the order row lock serialises different events. A signed event is
// still only Stripe's word that something happened on the account: what is not ours (a Payment Link, another app)
// or not readable is acknowledged and recorded as ignored, so Stripe stops retrying and nothing of ours changes.
import { createHash } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { DB } from '../db.ts'
import { markPaid } from '../orders/pay.ts'
import { markFailed } from '../orders/pending.ts'
import { isSessionPaid, orderOfSession, paidPaymentOf } from './checkout-session.ts'
import {
  type Applied,
  type EventContext,
  type EventOutcome,
  type FollowUp,
  type Handler,
  type IgnoredReason,
  ignored,
  PROCESSED,
} from './event-outcome.ts'
import { chargeRefunded, disputeClosed, disputeCreated, sessionExpired } from './events-after-purchase.ts'
import { type CheckoutSession, checkoutSessionSchema, eventEnvelopeSchema } from './stripe-schemas.ts'
import { SUBSCRIPTION_HANDLERS } from './subscription-events.ts'

export type { EventOutcome, IgnoredReason }

export interface EventResult {
  eventId: string
  type: string
  outcome: EventOutcome
  reason?: IgnoredReason
  followUp?: FollowUp
}

/**
 * `payload` is the signed body as parsed JSON (null when it was not JSON); its shape is checked here. `publicUrl`
 * is the shop's origin, for links in the e-mails an event sends.
 */
export async function processStripeEvent(db: DB, payload: unknown, publicUrl = ''): Promise<EventResult> {
  const envelope = eventEnvelopeSchema.safeParse(payload)
  const { id: eventId, type } = envelope.success ? envelope.data : unreadableEventKey(payload)
  return db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto('processed_stripe_events')
      .values({ id: eventId, type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!first) return { eventId, type, outcome: 'duplicate' }
    const context = { createdAt: eventTime(envelope.data?.created), publicUrl }
    const applied = envelope.success
      ? await applyEvent(trx, type, envelope.data.data.object, context)
      : ignored('malformed')
    if (applied.outcome === 'processed') return { eventId, type, outcome: 'processed', followUp: applied.followUp }
    await trx
      .updateTable('processed_stripe_events')
      .set({ outcome: 'ignored', reason: applied.reason })
      .where('id', '=', eventId)
      .execute()
    return { eventId, type, ...applied }
  })
}

/** The events the shop acts on; any other type is acknowledged and recorded as ignored. */
const HANDLERS: Record<string, Handler> = {
  'checkout.session.completed': sessionPaid,
  'checkout.session.async_payment_succeeded': sessionPaid,
  'checkout.session.async_payment_failed': sessionFailed,
  'checkout.session.expired': sessionExpired,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': disputeCreated,
  'charge.dispute.closed': disputeClosed,
  ...SUBSCRIPTION_HANDLERS,
}

/** The event types to enable on the Stripe webhook endpoint (README, "Real Stripe"). */
export const HANDLED_STRIPE_EVENTS = Object.keys(HANDLERS)

function applyEvent(trx: Transaction<Database>, type: string, object: unknown, context: EventContext) {
  const handler = Object.hasOwn(HANDLERS, type) ? HANDLERS[type] : undefined
  return handler ? handler(trx, object, type, context) : Promise.resolve(ignored('unhandled_type'))
}

/** Stripe's `created` (seconds); an event without one counts as now. */
function eventTime(created: number | null | undefined): Date {
  return created ? new Date(created * 1000) : new Date()
}

/** Runs `act` for a readable Checkout Session this shop opened, with its order. */
async function withOurSession(
  trx: Transaction<Database>,
  object: unknown,
  act: (session: CheckoutSession, orderId: string) => Promise<Applied>,
): Promise<Applied> {
  const session = checkoutSessionSchema.safeParse(object)
  if (!session.success) return ignored('malformed')
  const order = await orderOfSession(trx, session.data)
  return order ? act(session.data, order.id) : ignored('not_ours')
}

function sessionPaid(trx: Transaction<Database>, object: unknown) {
  return withOurSession(trx, object, async (session, orderId) => {
    if (!isSessionPaid(session)) return ignored('not_paid')
    await markPaid(trx, orderId, paidPaymentOf(session))
    return PROCESSED
  })
}

function sessionFailed(trx: Transaction<Database>, object: unknown) {
  return withOurSession(trx, object, async (_session, orderId) => {
    await markFailed(trx, orderId)
    return PROCESSED
  })
}

/** An event without a usable id is keyed by its content, so its redeliveries are still recognised. */
function unreadableEventKey(payload: unknown): { id: string; type: string } {
  const digest = createHash('sha256')
    .update(JSON.stringify(payload) ?? 'undefined')
    .digest('hex')
  const type = (payload as { type?: unknown } | null)?.type
  return { id: `unreadable_${digest}`, type: typeof type === 'string' && type ? type.slice(0, 255) : 'unknown' }
}
