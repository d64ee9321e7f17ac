// The /courses URL's search params, in zod/mini: route definitions live in the client's main chunk, and the
// full zod would add ~20 kB gzipped to every page. The server validates its input with the strict schema in
// catalog.ts, which has the same fields and bounds.
import * as z from 'zod/mini'
import { DURATION_BANDS, PRICE_BANDS, SORT_OPTIONS } from '../constants.ts'

const sortKeys = Object.keys(SORT_OPTIONS) as [keyof typeof SORT_OPTIONS, ...(keyof typeof SORT_OPTIONS)[]]
const priceKeys = Object.keys(PRICE_BANDS) as [keyof typeof PRICE_BANDS, ...(keyof typeof PRICE_BANDS)[]]
const durationKeys = Object.keys(DURATION_BANDS) as [keyof typeof DURATION_BANDS, ...(keyof typeof DURATION_BANDS)[]]

/** A bad or tampered value falls back to its default, so old or hand-edited links still open the catalogue. */
function lenient<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined)
}
const wholeNumber = (min: number, max: number) =>
  z.coerce.number().check(z.refine(Number.isInteger), z.minimum(min), z.maximum(max))

export const catalogueSearchSchema = z.object({
  search: lenient(z.string().check(z.trim(), z.maxLength(100))),
  category: lenient(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(60), z.regex(/^[a-z0-9-]*$/))),
  sort: lenient(z.enum(sortKeys)),
  price: lenient(z.enum(priceKeys)),
  rating: lenient(wholeNumber(1, 4)),
  duration: lenient(z.enum(durationKeys)),
  page: lenient(wholeNumber(1, 10_000)),
})
export type CatalogueSearch = z.infer<typeof catalogueSearchSchema>
