// What the public pricing page reads (plans.list's .output(): the public API's shape).
import { z } from 'zod'

const comparisonValue = z.union([z.boolean(), z.string()])

export const plansOutput = z.object({
  plans: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      monthlyPriceMinor: z.number().int(),
      annualPriceMinor: z.number().int(),
      currency: z.string(),
      features: z.array(z.string()),
      isPopular: z.boolean(),
      badge: z.string().nullable(),
    }),
  ),
  /** The ways to pay this store takes (bank transfer always): what the page may promise. */
  paymentMethods: z.object({ card: z.boolean(), paypal: z.boolean() }),
  comparison: z.array(
    z.object({
      name: z.string(),
      starter: comparisonValue,
      professional: comparisonValue,
      enterprise: comparisonValue,
    }),
  ),
})
