// Staff refunds through the payment rail: a card order is refunded with Stripe's refund API (an idempotency key per
// refund, so a retried request never refunds twice), a refunded plan's subscription is ended there first; PayPal
// and bank transfers are recorded as manual refunds.
import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import type { Actor } from '../audit/repository.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type RefundGateway, refundLinesMetadata } from '../orders/refunds.ts'
import { type StripeApi, stripeAnswered } from '../payments/stripe.ts'
import { refundOrder } from './refunds.ts'

export function stripeRefundGateway(stripe: StripeApi | null): RefundGateway | null {
  if (!stripe) return null
  const upstream = (error: unknown) => {
    throw new DomainError('upstream', PAYMENT_MESSAGES.refundFailed, { cause: error })
  }
  // No answer is not a refusal: Stripe may have made the refund (its charge.refunded then records it, and the same
  // idempotency key or the refunded line stops a second one), so the message must not say nothing was refunded.
  const unconfirmed = (error: unknown) => {
    if (stripeAnswered(error)) upstream(error)
    throw new DomainError('upstream', PAYMENT_MESSAGES.refundUnconfirmed, { cause: error })
  }
  return {
    async refund(order, amountMinor, idempotencyKey, lineIds) {
      const metadata = { orderId: order.id, reference: order.reference, ...refundLinesMetadata(lineIds) }
      const refund = await stripe
        .createRefund({ paymentIntentId: order.stripe_payment_intent_id!, amountMinor, metadata }, idempotencyKey)
        .catch(unconfirmed)
      return { stripeRefundId: refund.id }
    },
    cancelSubscription: async (subscriptionId) => {
      await stripe.cancelSubscription(subscriptionId).catch(upstream)
    },
    paymentIntentOfSession: (sessionId) => stripe.paymentIntentOfSession(sessionId).catch(upstream),
  }
}

export function refundByStaff(
  db: DB,
  stripe: StripeApi | null,
  input: { orderId: string; lineIds?: string[]; reference?: string; reason?: string },
  actor: Actor,
) {
  return refundOrder(db, { ...input, actor }, stripeRefundGateway(stripe))
}
