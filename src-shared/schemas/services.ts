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
  currency: z.string(),
})
