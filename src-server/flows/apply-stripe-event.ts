// Applies a verified Stripe event, typed at the edge (stripe-event.ts), exactly once: the event id is recorded in the
// same transaction that changes the order (a redelivery finds it and stops), and the order row lock serialises
// different events. A signed event is still only Stripe's word that something happened on the account: what is not
// ours (a Payment Link, another app) or not readable is acknowledged and recorded as ignored, so Stripe stops
// retrying and nothing of ours changes.
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'
import { markFailed } from '../orders/pending.ts'
import {
  type Applied,
  type EventContext,
  type EventOutcome,
  type FollowUp,
  type Handler,
  type IgnoredReason,
  ignored,
  PROCESSED,
} from '../payments/event-outcome.ts'
import type { EventOf, HandledType, StripeEvent, TypedStripeEvent } from '../payments/stripe-event.ts'
import { isSessionPaid, orderOfSession, paidPaymentOf } from './checkout-session.ts'
import { accountUpdated, transferReversed } from './creator-payouts.ts'
import { markPaid } from './pay-order.ts'
import { chargeRefunded, disputeClosed, disputeCreated, sessionExpired } from './stripe-after-purchase.ts'
import { invoiceNotPaid, invoicePaid, subscriptionEvent } from './stripe-subscription-events.ts'

export { HANDLED_STRIPE_EVENTS } from '../payments/stripe-event.ts'
export type { EventOutcome, IgnoredReason }

export interface EventResult {
  eventId: string
  type: string
  outcome: EventOutcome
  reason?: IgnoredReason
  followUp?: FollowUp
}

/**
 * `event` is the webhook's event as the edge parsed it (stripe-event.ts). `publicUrl` is the shop's origin, for
 * links in the e-mails an event sends.
 */
export async function processStripeEvent(db: DB, event: StripeEvent, publicUrl = ''): Promise<EventResult> {
  const { id: eventId, type } = event
  return db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto('processed_stripe_events')
      .values({ id: eventId, type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!first) return { eventId, type, outcome: 'duplicate' }
    const context = { createdAt: event.createdAt, publicUrl }
    const applied = event.kind === 'ignored' ? ignored(event.reason) : await applyEvent(trx, event, context)
    if (applied.outcome === 'processed') return { eventId, type, outcome: 'processed', followUp: applied.followUp }
    await trx
      .updateTable('processed_stripe_events')
      .set({ outcome: 'ignored', reason: applied.reason })
      .where('id', '=', eventId)
      .execute()
    return { eventId, type, ...applied }
  })
}

/** The handler of each event type the shop acts on (any other type is ignored at the edge). */
const HANDLERS: { [T in HandledType]: Handler<Extract<TypedStripeEvent, { type: T }>> } = {
  'checkout.session.completed': sessionPaid,
  'checkout.session.async_payment_succeeded': sessionPaid,
  'checkout.session.async_payment_failed': sessionFailed,
  'checkout.session.expired': sessionExpired,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': disputeCreated,
  'charge.dispute.closed': disputeClosed,
  'customer.subscription.created': subscriptionEvent,
  'customer.subscription.updated': subscriptionEvent,
  'customer.subscription.deleted': subscriptionEvent,
  'customer.subscription.trial_will_end': subscriptionEvent,
  'invoice.paid': invoicePaid,
  'invoice.payment_failed': invoiceNotPaid,
  'invoice.payment_action_required': invoiceNotPaid,
  'account.updated': accountUpdated,
  'transfer.reversed': transferReversed,
}

function applyEvent(trx: Transaction<Database>, event: TypedStripeEvent, context: EventContext) {
  // Each handler takes the events of its type; TypeScript cannot follow the pairing through the index.
  const handler = HANDLERS[event.type] as Handler
  return handler(trx, event, context)
}

/** Runs `act` for a Checkout Session this shop opened, with its order. */
async function withOurSession(
  trx: Transaction<Database>,
  event: EventOf<'session'>,
  act: (orderId: string) => Promise<Applied>,
): Promise<Applied> {
  const order = await orderOfSession(trx, event.object)
  return order ? act(order.id) : ignored('not_ours')
}

function sessionPaid(trx: Transaction<Database>, event: EventOf<'session'>) {
  return withOurSession(trx, event, async (orderId) => {
    if (!isSessionPaid(event.object)) return ignored('not_paid')
    await markPaid(trx, orderId, paidPaymentOf(event.object))
    // Stripe's fee is read after the commit (and swept later if Stripe cannot answer): the sale never waits for it.
    return { outcome: 'processed', followUp: { cancelSubscriptions: [], processorFeeOf: orderId } }
  })
}

function sessionFailed(trx: Transaction<Database>, event: EventOf<'session'>) {
  return withOurSession(trx, event, async (orderId) => {
    await markFailed(trx, orderId)
    return PROCESSED
  })
}
