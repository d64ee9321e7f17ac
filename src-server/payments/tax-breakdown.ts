// Stripe Tax's per-jurisdiction amounts for the invoice. A paid Checkout Session's event carries the tax total but
// never its breakdown (total_details.breakdown is only returned when expanded), so before a paid session's event
// is applied, the session is read back expanded and the breakdown put into the event's object. Stripe is called
// here, before the event's transaction opens; if it cannot answer, the invoice shows the tax as one line.

import type { StripeApi } from './stripe.ts'
import { isPaidSessionEvent, type StripeEvent } from './stripe-event.ts'

type Log = { warn: (details: object, message: string) => void }

export async function withTaxBreakdown(event: StripeEvent, stripe: StripeApi | null, log: Log): Promise<StripeEvent> {
  if (!stripe || !isPaidSessionEvent(event)) return event
  const session = event.object
  const tax = session.total_details?.amount_tax ?? 0
  if (tax <= 0 || session.total_details?.breakdown) return event
  try {
    const full = await stripe.retrieveCheckoutSession(session.id)
    if (full.total_details?.amount_tax !== tax || !full.total_details.breakdown) return event
    return { ...event, object: { ...session, total_details: full.total_details } }
  } catch (error) {
    log.warn({ err: error, session: session.id }, 'could not read the tax breakdown of a paid session')
    return event
  }
}
