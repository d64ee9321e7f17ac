// Stripe Tax's per-jurisdiction amounts for the invoice. A paid Checkout Session's event carries the tax total but
// never its breakdown (total_details.breakdown is only returned when expanded), so before a paid session's event
// is applied, the session is read back expanded and the breakdown put into the event's object. Stripe is called
// here, before the event's transaction opens; if it cannot answer, the invoice shows the tax as one line.

import type { StripeApi } from './stripe.ts'
import { checkoutSessionSchema, eventEnvelopeSchema } from './stripe-schemas.ts'

const PAID_SESSION_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded'])

type Log = { warn: (details: object, message: string) => void }

export async function withTaxBreakdown(event: unknown, stripe: StripeApi | null, log: Log): Promise<unknown> {
  if (!stripe) return event
  const envelope = eventEnvelopeSchema.safeParse(event)
  if (!envelope.success || !PAID_SESSION_EVENTS.has(envelope.data.type)) return event
  const session = checkoutSessionSchema.safeParse(envelope.data.data.object)
  if (!session.success) return event
  const tax = session.data.total_details?.amount_tax ?? 0
  if (tax <= 0 || session.data.total_details?.breakdown) return event
  try {
    const full = await stripe.retrieveCheckoutSession(session.data.id)
    if (full.total_details?.amount_tax !== tax || !full.total_details.breakdown) return event
    const raw = event as { data: { object: Record<string, unknown> } }
    return { ...raw, data: { ...raw.data, object: { ...raw.data.object, total_details: full.total_details } } }
  } catch (error) {
    log.warn({ err: error, session: session.data.id }, 'could not read the tax breakdown of a paid session')
    return event
  }
}
