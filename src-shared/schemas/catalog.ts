import { z } from 'zod'
import { DURATION_BANDS, PRICE_BANDS, SORT_OPTIONS } from '../constants.ts'

export const courseIdSchema = z.string().trim().min(1).max(120)

export const featuredCoursesInput = z
  .object({ limit: z.number().int().min(1).max(24).default(8) })
  .default({ limit: 8 })

const sortKeys = Object.keys(SORT_OPTIONS) as [keyof typeof SORT_OPTIONS, ...(keyof typeof SORT_OPTIONS)[]]
const priceKeys = Object.keys(PRICE_BANDS) as [keyof typeof PRICE_BANDS, ...(keyof typeof PRICE_BANDS)[]]
const durationKeys = Object.keys(DURATION_BANDS) as [keyof typeof DURATION_BANDS, ...(keyof typeof DURATION_BANDS)[]]

/** Catalogue search parameters; the same schema types the /courses URL and the server input. */
export const catalogueSearchSchema = z.object({
  search: z.string().trim().max(100).optional(),
  category: z.string().trim().toLowerCase().max(60).optional(),
  sort: z.enum(sortKeys).optional(),
  price: z.enum(priceKeys).optional(),
  rating: z.coerce.number().int().min(1).max(4).optional(),
  duration: z.enum(durationKeys).optional(),
  page: z.coerce.number().int().min(1).max(10_000).optional(),
})
export type CatalogueSearch = z.infer<typeof catalogueSearchSchema>
