// A subscription-mode Checkout Session (a plan, a monthly service) is paid through its subscription's first invoice,
// so its event names no payment intent. Before a paid session's event is applied, that payment is looked up at
// Stripe (here, before the event's transaction opens) and put into the event, so the order keeps it when it is
// paid and a later charge.refunded or dispute about it (made in the Stripe dashboard) finds its order. If Stripe
// cannot answer, the order is paid without it and a staff refund looks it up again (orders/refunds.ts).

import type { StripeApi } from './stripe.ts'
import { isPaidSessionEvent, type StripeEvent } from './stripe-event.ts'

type Log = { warn: (details: object, message: string) => void }

export async function withSessionPayment(event: StripeEvent, stripe: StripeApi | null, log: Log): Promise<StripeEvent> {
  if (!stripe || !isPaidSessionEvent(event)) return event
  const session = event.object
  if (session.payment_status !== 'paid' || session.payment_intent || !session.subscription) return event
  try {
    const found = await stripe.paymentIntentOfSession(session.id)
    if (!found) return event
    return { ...event, object: { ...session, payment_intent: found } }
  } catch (error) {
    log.warn({ err: error, session: session.id }, 'could not read the payment of a paid subscription session')
    return event
  }
}
