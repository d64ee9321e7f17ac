// Stripe events about what happens after a checkout: a session Stripe expired, refunds made in the Stripe dashboard
// (charge.refunded) and disputes (charge.dispute.created / closed). Each is idempotent and reads the order's current
// state under its row lock (orders/ does); what is not ours is acknowledged and ignored.
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import { expire } from '../orders/pending.ts'
import { reconcileStripeRefunds, refundLineIdsOf } from '../orders/refunds.ts'
import { reconcileSubscriptionInvoiceRefunds } from '../orders/subscription-refunds.ts'
import { type Applied, type EventContext, type IgnoredReason, ignored, PROCESSED } from '../payments/event-outcome.ts'
import type { EventOf } from '../payments/stripe-event.ts'
import { feeInChargeCurrency } from '../payments/stripe-fees.ts'
import type { StripeDispute } from '../payments/stripe-schemas.ts'
import { endRefundedSubscription } from '../subscriptions/state.ts'
import { remindAboutLeftCheckout } from './checkout-recovery.ts'
import { orderOfSession } from './checkout-session.ts'
import { closeDispute, type DisputeEvent, openDispute } from './disputes.ts'
import { refundEffects } from './refunds.ts'
import { closeRenewalDispute, openRenewalDispute } from './renewal-disputes.ts'

const idOf = (value: string | { id: string } | null | undefined) =>
  value ? (typeof value === 'string' ? value : value.id) : null

/**
 * checkout.session.expired: the order of an unpaid session becomes Expired (a paid or closed order stays), and the
 * buyer's cart reminder, if they ticked it and bought nothing since, is queued now (checkout-recovery.ts).
 */
export async function sessionExpired(
  trx: Transaction<Database>,
  event: EventOf<'session'>,
  context: EventContext,
): Promise<Applied> {
  const order = await orderOfSession(trx, event.object)
  if (!order) return ignored('not_ours')
  await expire(trx, order.id)
  await remindAboutLeftCheckout(trx, order.id, context.publicUrl)
  return PROCESSED
}

/**
 * charge.refunded: every refund of the payment recorded once (ours already are; the dashboard's get recorded), against
 * the order it paid, or else the subscription invoice (a renewal) it paid: the member is mailed, and the whole of the
 * current period's renewal given back ends the plan as a refunded plan order does (cancelled at Stripe after commit).
 */
export async function chargeRefunded(
  trx: Transaction<Database>,
  event: EventOf<'charge'>,
  context: EventContext,
): Promise<Applied> {
  const charge = event.object
  const paymentIntentId = idOf(charge.payment_intent)
  const refunds = (charge.refunds?.data ?? []).map((refund) => ({
    id: refund.id,
    amount: refund.amount,
    lineIds: refundLineIdsOf(refund.metadata),
  }))
  // Oldest first, so the last one (if it completes the refund) takes the remaining lines.
  refunds.reverse()
  const effects = refundEffects({ publicUrl: context.publicUrl })
  const ours = paymentIntentId ? await reconcileStripeRefunds(trx, { paymentIntentId, refunds }, effects) : null
  if (ours) return afterCommit(ours.endedStripeSubscriptions)
  // No order's payment: a subscription's later invoice (a renewal) may have been paid by it.
  const renewal = await reconcileSubscriptionInvoiceRefunds(
    trx,
    { paymentIntentId, chargeId: charge.id, stripeInvoiceId: idOf(charge.invoice), refunds, at: clock.now() },
    { endRefundedSubscription },
  )
  return renewal ? afterCommit(renewal.endedStripeSubscriptions) : ignored('not_ours')
}

/** A plan whose payment was taken back: its subscription is cancelled at Stripe once the event has committed. */
function afterCommit(endedStripeSubscriptions: string[]): Applied {
  return endedStripeSubscriptions.length
    ? { outcome: 'processed', followUp: { cancelSubscriptions: endedStripeSubscriptions } }
    : PROCESSED
}

function disputeOf(dispute: StripeDispute): DisputeEvent | IgnoredReason {
  const paymentIntentId = idOf(dispute.payment_intent)
  if (!paymentIntentId) return 'not_ours'
  return {
    disputeId: dispute.id,
    paymentIntentId,
    chargeId: idOf(dispute.charge),
    stripeInvoiceId: idOf(dispute.invoice),
    status: dispute.status,
    reason: dispute.reason,
    amountMinor: dispute.amount ?? null,
    feeMinor: chargebackFeeOf(dispute),
  }
}

/**
 * Stripe's fees on the dispute's balance transactions (the chargeback fee), in the charge's currency; none when it
 * cannot be known in it (then the platform carries it, as it does when Stripe reports none).
 */
function chargebackFeeOf(dispute: StripeDispute): number | null {
  if (!dispute.currency) return null
  return feeInChargeCurrency(dispute.balance_transactions ?? [], dispute.currency)
}

/**
 * charge.dispute.created: the order's access is withheld, it becomes Disputed, staff are alerted; of a renewal's
 * payment (no order's), the plan's Premium is withheld and staff are alerted (renewal-disputes.ts).
 */
export async function disputeCreated(trx: Transaction<Database>, event: EventOf<'dispute'>): Promise<Applied> {
  const dispute = disputeOf(event.object)
  if (typeof dispute === 'string') return ignored(dispute)
  let outcome = await openDispute(trx, dispute)
  if (outcome === 'not_ours') outcome = await openRenewalDispute(trx, dispute)
  return outcome === 'not_ours' ? ignored('not_ours') : PROCESSED
}

/** charge.dispute.closed: won gives the access back; lost records the money taken back and keeps it withheld. */
export async function disputeClosed(
  trx: Transaction<Database>,
  event: EventOf<'dispute'>,
  context: EventContext,
): Promise<Applied> {
  const dispute = disputeOf(event.object)
  if (typeof dispute === 'string') return ignored(dispute)
  let closed = await closeDispute(trx, dispute, { publicUrl: context.publicUrl })
  if (closed.outcome === 'not_ours') closed = await closeRenewalDispute(trx, dispute)
  return closed.outcome === 'not_ours' ? ignored('not_ours') : afterCommit(closed.endedStripeSubscriptions)
}
