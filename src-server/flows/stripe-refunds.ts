// Staff refunds through the payment rail: a card order is refunded with Stripe's refund API (an idempotency key per
// refund, so a retried request never refunds twice), a refunded plan's subscription is ended there first; PayPal
// and bank transfers are recorded as manual refunds. A recurring service's month, paid by its own Stripe invoice, is
// refunded the same way when staff cancel the service (decision 0104).
import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { type RefundGateway, refundLinesMetadata } from '../orders/refunds.ts'
import { givenBackSoFar, lockRenewalOfInvoice, recordRenewalRefund } from '../orders/subscription-refunds.ts'
import { type StripeApi, stripeRefused } from '../payments/stripe.ts'
import type { MailLinks } from '../service-orders/mails.ts'
import { refundOrder } from './refunds.ts'

const upstream = (error: unknown): never => {
  throw new DomainError('upstream', PAYMENT_MESSAGES.refundFailed, { cause: error })
}
// No answer (or a server error, whose result Stripe calls indeterminate) is not a refusal: Stripe may have made the
// refund (its charge.refunded then records it, and the same idempotency key or the refunded line stops a second one),
// so the message must not say nothing was refunded.
const unconfirmed = (error: unknown): never => {
  if (stripeRefused(error)) upstream(error)
  throw new DomainError('upstream', PAYMENT_MESSAGES.refundUnconfirmed, { cause: error })
}

export function stripeRefundGateway(stripe: StripeApi | null): RefundGateway | null {
  if (!stripe) return null
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
  actor: audit.Actor,
  links?: MailLinks,
) {
  return refundOrder(db, { ...input, actor }, stripeRefundGateway(stripe), links)
}

/**
 * What is left of a month a Stripe invoice paid (a recurring service order's month after the first), refunded through
 * Stripe in the caller's transaction, the month's row locked meanwhile: recorded at once under Stripe's refund id (the
 * charge.refunded that follows finds it recorded), with its credit note, the buyer's refund mail and an audit record.
 * The key holds what came back before, so a retry refunds once. Null when nothing of it is left.
 */
export function stripeMonthRefund(stripe: StripeApi | null) {
  if (!stripe) return null
  return async (
    trx: DB,
    request: { stripeInvoiceId: string; reason: string; actor: audit.Actor },
  ): Promise<{ amountMinor: number; creditNoteNumber: string | null } | null> => {
    const month = await lockRenewalOfInvoice(trx, request.stripeInvoiceId)
    if (!month) return null
    const given = await givenBackSoFar(trx, month.id)
    const left = month.amount_minor - given.amountMinor
    if (left <= 0) return null
    // Recorded before its payment was kept (a month renewed before decision 0104): Stripe says which it was.
    const paymentIntentId =
      month.stripe_payment_intent_id ??
      (await stripe.paymentOfInvoice(request.stripeInvoiceId).catch(upstream))?.paymentIntentId
    if (!paymentIntentId) throw new DomainError('precondition', 'Stripe holds no card payment for this month')
    const metadata = { stripeInvoiceId: request.stripeInvoiceId, reason: request.reason.slice(0, 500) }
    const refund = await stripe
      .createRefund({ paymentIntentId, amountMinor: left, metadata }, `refund-month-${month.id}-${given.amountMinor}`)
      .catch(unconfirmed)
    const before = given.amountMinor
    const recorded = await recordRenewalRefund(trx, month, given, refund, clock.now())
    await audit.record(trx, request.actor, 'order.refund', {
      type: 'order',
      id: month.order_id ?? month.id,
      before: { reference: month.order_reference, invoice: month.invoice_number, refundedMinor: before },
      after: {
        reference: month.order_reference,
        invoice: month.invoice_number,
        refundedMinor: given.amountMinor,
        creditNote: recorded?.creditNoteNumber ?? null,
      },
    })
    return { amountMinor: refund.amount, creditNoteNumber: recorded?.creditNoteNumber ?? null }
  }
}
