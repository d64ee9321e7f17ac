// What applying one Stripe event came to, and the shape of an event handler (events.ts dispatches by type).
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { TypedStripeEvent } from './stripe-event.ts'

export type EventOutcome = 'processed' | 'duplicate' | 'ignored'
export type IgnoredReason = 'not_ours' | 'malformed' | 'unhandled_type' | 'unhandled_status' | 'not_paid'

/** What to ask Stripe once the event's transaction has committed (Stripe calls never run inside it). */
export interface FollowUp {
  /**
   * Stop these at Stripe: a second live subscription of a member (kept out as a duplicate), or the subscription
   * of a plan whose payment a dashboard refund or a lost dispute took back.
   */
  cancelSubscriptions: string[]
  /** A paid order whose creators' shares wait for Stripe's fee on the payment: read it and take it (decision 0047). */
  processorFeeOf?: string
}

export type Applied = { outcome: 'processed'; followUp?: FollowUp } | { outcome: 'ignored'; reason: IgnoredReason }
export const PROCESSED: Applied = { outcome: 'processed' }
export const ignored = (reason: IgnoredReason): Applied => ({ outcome: 'ignored', reason })

/** About the event beyond its object: when Stripe created it, and the shop's public URL for links in e-mails. */
export interface EventContext {
  createdAt: Date
  publicUrl: string
}

/** Applies one typed event (stripe-event.ts parsed it at the edge); E narrows it to the types it handles. */
export type Handler<E extends TypedStripeEvent = TypedStripeEvent> = (
  trx: Transaction<Database>,
  event: E,
  context: EventContext,
) => Promise<Applied>
