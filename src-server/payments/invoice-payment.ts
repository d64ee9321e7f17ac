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
 * charge.refunded, or a dispute (charge.dispute.*), of a payment that is neither an order's nor a kept renewal's
 * (`isKnown` asks the database): the invoice it paid, if any, is looked up at Stripe and put into the event (the charge's
 * `invoice`, as API versions before 2025-03-31.basil sent it; the dispute's, which only we set), so a renewal recorded
 * without its payment (before it was kept, or while Stripe could not say) still gets its refund or dispute recorded. If
 * Stripe cannot answer, the event goes on without it.
 */
export async function withRefundedInvoice(
  event: StripeEvent,
  stripe: StripeApi | null,
  log: Log,
  isKnown: (payment: { paymentIntentId: string; chargeId: string | null }) => Promise<boolean>,
): Promise<StripeEvent> {
  if (!stripe) return event
  const about =
    event.kind === 'charge' && event.type === 'charge.refunded'
      ? { object: event.object, chargeId: event.object.id }
      : event.kind === 'dispute'
        ? { object: event.object, chargeId: refId(event.object.charge) }
        : null
  if (!about) return event
  const paymentIntentId = refId(about.object.payment_intent)
  if (!paymentIntentId || about.object.invoice) return event
  if (await isKnown({ paymentIntentId, chargeId: about.chargeId })) return event
  try {
    const invoice = await stripe.invoiceOfPayment(paymentIntentId)
    return invoice ? ({ ...event, object: { ...about.object, invoice } } as StripeEvent) : event
  } catch (error) {
    log.warn(
      { err: error, payment: paymentIntentId },
      'could not read which invoice a refunded or disputed payment paid',
    )
    return event
  }
}

const refId = (ref: string | { id: string } | null | undefined) =>
  !ref ? null : typeof ref === 'string' ? ref : ref.id
