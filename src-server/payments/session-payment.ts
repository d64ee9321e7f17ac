// A subscription-mode Checkout Session (a plan, a monthly service) is paid through its subscription's first invoice,
// so its event names no payment intent. Before a paid session's event is applied, that payment is looked up at
// Stripe (here, before the event's transaction opens) and put into the event, so the order keeps it when it is
// paid and a later charge.refunded or dispute about it (made in the Stripe dashboard) finds its order. If Stripe
// cannot answer, the order is paid without it and a staff refund looks it up again (orders/refunds.ts).

import type { StripeApi } from './stripe.ts'
import { checkoutSessionSchema, eventEnvelopeSchema } from './stripe-schemas.ts'

const PAID_SESSION_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded'])

type Log = { warn: (details: object, message: string) => void }

export async function withSessionPayment(event: unknown, stripe: StripeApi | null, log: Log): Promise<unknown> {
  if (!stripe) return event
  const envelope = eventEnvelopeSchema.safeParse(event)
  if (!envelope.success || !PAID_SESSION_EVENTS.has(envelope.data.type)) return event
  const session = checkoutSessionSchema.safeParse(envelope.data.data.object)
  if (!session.success) return event
  const { payment_status, payment_intent, subscription } = session.data
  if (payment_status !== 'paid' || payment_intent || !subscription) return event
  try {
    const found = await stripe.paymentIntentOfSession(session.data.id)
    if (!found) return event
    const raw = event as { data: { object: Record<string, unknown> } }
    return { ...raw, data: { ...raw.data, object: { ...raw.data.object, payment_intent: found } } }
  } catch (error) {
    log.warn({ err: error, session: session.data.id }, 'could not read the payment of a paid subscription session')
    return event
  }
}
