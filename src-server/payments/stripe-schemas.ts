// The shapes of what Stripe sends us, as far as the app reads them. A signed webhook proves who sent it, not what
// it holds: events are parsed here, and whatever does not fit is acknowledged and recorded as ignored, never applied.
import { z } from 'zod'

const id = z.string().min(1).max(255)
const unixSeconds = z.number().int().nonnegative()

export const checkoutSessionSchema = z.object({
  id,
  url: z.string().nullish(),
  status: z.string().nullish(),
  payment_status: z.string(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  /** An id, or the expanded object. */
  subscription: z.union([id, z.object({ id })]).nullish(),
})
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>

export const subscriptionSchema = z.object({
  id,
  status: z.string(),
  trial_end: unixSeconds.nullish(),
  items: z.object({ data: z.array(z.object({ current_period_end: unixSeconds.nullish() })) }).nullish(),
})
export type StripeSubscription = z.infer<typeof subscriptionSchema>

/** Every event: which one, and its object (checked against the schema of its type before use). */
export const eventEnvelopeSchema = z.object({
  id,
  type: z.string().min(1).max(255),
  data: z.object({ object: z.unknown() }),
})
