// The /courses URL's search params. Lenient: a bad or tampered value falls back to its default, so old or
// hand-edited links still open the catalogue. The server validates its input with the strict zod schema in
// src-shared/schemas/catalog.ts, which has the same fields and bounds.
import { DURATION_BANDS, PRICE_BANDS, SORT_OPTIONS } from '#shared/constants.ts'
import { optionalEnum, type SearchOf, searchParams, text, wholeNumber } from './search-params.ts'

const keys = <T extends object>(record: T) => Object.keys(record) as [keyof T & string, ...(keyof T & string)[]]

export const catalogueSearchSchema = searchParams({
  search: text(100),
  category: text(60, (value) => {
    const slug = value.toLowerCase()
    return /^[a-z0-9-]*$/.test(slug) ? slug : undefined
  }),
  sort: optionalEnum(keys(SORT_OPTIONS)),
  price: optionalEnum(keys(PRICE_BANDS)),
  rating: wholeNumber(1, 4, { coerce: true }),
  duration: optionalEnum(keys(DURATION_BANDS)),
  page: wholeNumber(1, 10_000, { coerce: true }),
})
export type CatalogueSearch = SearchOf<typeof catalogueSearchSchema>
