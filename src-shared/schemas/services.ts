import { z } from 'zod'

export const serviceIdSchema = z.string().trim().min(1).max(120)

/** A service card (the services page and the home page's featured ones): the public `services.list` answer. */
export const serviceCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  image: z.string(),
  featured: z.boolean(),
  fromPriceMinor: z.number().int().nullable(),
  /** The cheapest package's billing interval: null for a one-off price. */
  fromBillingInterval: z.enum(['month', 'year']).nullable(),
  currency: z.string(),
})

/** A service's page with its packages in order: the public `services.byId` answer (null: 'Service Not Found'). */
export const serviceDetailSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  image: z.string(),
  whatYouGet: z.array(z.string()),
  requirements: z.array(z.string()),
  processSteps: z.array(z.object({ step: z.number().int(), title: z.string(), description: z.string() })),
  faqs: z.array(z.object({ question: z.string(), answer: z.string() })),
  packages: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      priceMinor: z.number().int(),
      currency: z.enum(['USD', 'GBP']),
      description: z.string(),
      features: z.array(z.string()),
      processingTime: z.string(),
      billingInterval: z.enum(['month', 'year']).nullable(),
    }),
  ),
})
