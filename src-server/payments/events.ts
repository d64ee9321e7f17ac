// Applies a verified Stripe event exactly once: the event id is recorded in the same transaction that changes the
// order (a redelivery finds it and stops), and the order row lock serialises different events. A signed event is
// still only Stripe's word that something happened on the account: what is not ours (a Payment Link, another app)
// or not readable is acknowledged and recorded as ignored, so Stripe stops retrying and nothing of ours changes.
import { createHash } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { STRIPE_SUBSCRIPTION_STATUS, syncStripeSubscription } from '../access/subscriptions.ts'
import type { DB } from '../db.ts'
import { markPaid } from '../orders/pay.ts'
import { markFailed } from '../orders/pending.ts'
import { isSessionPaid, orderOfSession, paidPaymentOf } from './checkout-session.ts'
import { chargeRefunded, disputeClosed, disputeCreated, sessionExpired } from './events-after-purchase.ts'
import {
  type CheckoutSession,
  checkoutSessionSchema,
  eventEnvelopeSchema,
  subscriptionSchema,
} from './stripe-schemas.ts'

export type EventOutcome = 'processed' | 'duplicate' | 'ignored'
export type IgnoredReason = 'not_ours' | 'malformed' | 'unhandled_type' | 'unhandled_status' | 'not_paid'

export interface EventResult {
  eventId: string
  type: string
  outcome: EventOutcome
  reason?: IgnoredReason
}

type Applied = { outcome: 'processed' } | { outcome: 'ignored'; reason: IgnoredReason }
const PROCESSED: Applied = { outcome: 'processed' }
const ignored = (reason: IgnoredReason): Applied => ({ outcome: 'ignored', reason })

/** `payload` is the signed body as parsed JSON (null when it was not JSON); its shape is checked here. */
export async function processStripeEvent(db: DB, payload: unknown): Promise<EventResult> {
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
    const applied = envelope.success ? await applyEvent(trx, type, envelope.data.data.object) : ignored('malformed')
    if (applied.outcome === 'processed') return { eventId, type, outcome: 'processed' }
    await trx
      .updateTable('processed_stripe_events')
      .set({ outcome: 'ignored', reason: applied.reason })
      .where('id', '=', eventId)
      .execute()
    return { eventId, type, ...applied }
  })
}

type Handler = (trx: Transaction<Database>, object: unknown, type: string) => Promise<Applied>

/** The events the shop acts on; any other type is acknowledged and recorded as ignored. */
const HANDLERS: Record<string, Handler> = {
  'checkout.session.completed': sessionPaid,
  'checkout.session.async_payment_succeeded': sessionPaid,
  'checkout.session.async_payment_failed': sessionFailed,
  'checkout.session.expired': sessionExpired,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': disputeCreated,
  'charge.dispute.closed': disputeClosed,
  'customer.subscription.updated': subscriptionChanged,
  'customer.subscription.deleted': subscriptionChanged,
}

function applyEvent(trx: Transaction<Database>, type: string, object: unknown): Promise<Applied> {
  const handler = Object.hasOwn(HANDLERS, type) ? HANDLERS[type] : undefined
  return handler ? handler(trx, object, type) : Promise.resolve(ignored('unhandled_type'))
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

async function subscriptionChanged(trx: Transaction<Database>, object: unknown, type: string): Promise<Applied> {
  const parsed = subscriptionSchema.safeParse(object)
  if (!parsed.success) return ignored('malformed')
  const subscription = parsed.data
  const status =
    type === 'customer.subscription.deleted' ? 'cancelled' : STRIPE_SUBSCRIPTION_STATUS[subscription.status]
  if (!status) return ignored('unhandled_status')
  const periodEnd = subscription.trial_end ?? subscription.items?.data[0]?.current_period_end ?? null
  const synced = await syncStripeSubscription(trx, {
    stripeSubscriptionId: subscription.id,
    status,
    renewsAt: periodEnd ? new Date(periodEnd * 1000) : null,
  })
  return synced ? PROCESSED : ignored('not_ours')
}

/** An event without a usable id is keyed by its content, so its redeliveries are still recognised. */
function unreadableEventKey(payload: unknown): { id: string; type: string } {
  const digest = createHash('sha256')
    .update(JSON.stringify(payload) ?? 'undefined')
    .digest('hex')
  const type = (payload as { type?: unknown } | null)?.type
  return { id: `unreadable_${digest}`, type: typeof type === 'string' && type ? type.slice(0, 255) : 'unknown' }
}
