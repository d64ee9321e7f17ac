// The payment that paid a subscription's invoice. Since API 2025-03-31.basil an invoice names its payments only in its
// includable `payments` list, which invoice.paid does not carry: before a paid renewal's event is applied, the payment
// is looked up at Stripe (here, before the event's transaction opens) and put into the event, so the invoice keeps it
// and a later charge.refunded about it (a refund made in the Stripe dashboard) finds the invoice. The first invoice
// (subscription_create) is the checkout's payment, which its order keeps. If Stripe cannot answer, the renewal is
// recorded without it, and a refund of it is found the other way round (withRefundedInvoice).

import type { StripeApi } from './stripe.ts'
import type { StripeEvent } from './stripe-event.ts'
import { paymentOfInvoice } from './stripe-schemas.ts'

type Log = { warn: (details: object, message: string) => void }

export async function withInvoicePayment(event: StripeEvent, stripe: StripeApi | null, log: Log): Promise<StripeEvent> {
  if (!stripe || event.kind !== 'invoice' || event.type !== 'invoice.paid') return event
  const invoice = event.object
  const ofSubscription = Boolean(invoice.parent?.subscription_details?.subscription ?? invoice.subscription)
  if (!ofSubscription || (invoice.amount_paid ?? 0) <= 0 || invoice.billing_reason === 'subscription_create') {
    return event
  }
  if (paymentOfInvoice(invoice)) return event
  try {
    const found = await stripe.paymentOfInvoice(invoice.id)
    if (!found) return event
    const payment = {
      type: found.paymentIntentId ? 'payment_intent' : 'charge',
      payment_intent: found.paymentIntentId,
      charge: found.chargeId,
    }
    return { ...event, object: { ...invoice, payments: { data: [{ status: 'paid', payment }] } } }
  } catch (error) {
    log.warn({ err: error, invoice: invoice.id }, 'could not read the payment of a paid subscription invoice')
    return event
  }
}

/**
 * charge.refunded of a payment that is neither an order's nor a kept renewal's (`isKnown` asks the database): the
 * invoice it paid, if any, is looked up at Stripe and put into the event (the charge's `invoice`, as API versions
 * before 2025-03-31.basil sent it), so a renewal recorded without its payment (before it was kept, or while Stripe could
 * not say) still gets its refund recorded. If Stripe cannot answer, the event goes on without it.
 */
export async function withRefundedInvoice(
  event: StripeEvent,
  stripe: StripeApi | null,
  log: Log,
  isKnown: (payment: { paymentIntentId: string; chargeId: string }) => Promise<boolean>,
): Promise<StripeEvent> {
  if (!stripe || event.kind !== 'charge' || event.type !== 'charge.refunded') return event
  const charge = event.object
  const paymentIntentId = charge.payment_intent
    ? typeof charge.payment_intent === 'string'
      ? charge.payment_intent
      : charge.payment_intent.id
    : null
  if (!paymentIntentId || charge.invoice) return event
  if (await isKnown({ paymentIntentId, chargeId: charge.id })) return event
  try {
    const invoice = await stripe.invoiceOfPayment(paymentIntentId)
    return invoice ? { ...event, object: { ...charge, invoice } } : event
  } catch (error) {
    log.warn({ err: error, charge: charge.id }, 'could not read which invoice a refunded payment paid')
    return event
  }
}
