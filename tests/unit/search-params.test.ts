// Route search params are checked without zod (it kept ~14 kB gzipped out of the first page): the small parsers
// must answer exactly as the zod/mini schemas they replaced, kept here as the reference, on good, bad and tampered
// values (the router hands them strings, numbers, booleans, objects).
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { catalogueSearchSchema } from '../../src-client/lib/catalogue-search.ts'
import {
  omitParams,
  optionalEnum,
  optionalFlag,
  optionalPage,
  optionalText,
  searchParams,
} from '../../src-client/lib/search-params.ts'
import { DURATION_BANDS, PRICE_BANDS, SORT_OPTIONS } from '../../src-shared/constants.ts'

const keys = <T extends object>(record: T) => Object.keys(record) as [string, ...string[]]
const lenient = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined)
const wholeNumber = (min: number, max: number) =>
  z.coerce.number().check(z.refine(Number.isInteger), z.minimum(min), z.maximum(max))
const reference = {
  text: lenient(z.string().check(z.trim(), z.minLength(1), z.maxLength(2000))),
  page: lenient(z.int().check(z.gte(1), z.lte(10_000))),
  flag: lenient(z.boolean()),
  status: lenient(z.enum(['paid', 'refunded'])),
  catalogue: z.object({
    search: lenient(z.string().check(z.trim(), z.maxLength(100))),
    category: lenient(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(60), z.regex(/^[a-z0-9-]*$/))),
    sort: lenient(z.enum(keys(SORT_OPTIONS))),
    price: lenient(z.enum(keys(PRICE_BANDS))),
    rating: lenient(wholeNumber(1, 4)),
    duration: lenient(z.enum(keys(DURATION_BANDS))),
    page: lenient(wholeNumber(1, 10_000)),
  }),
}

const VALUES: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  'react',
  '  React Hooks  ',
  'UX-Design',
  'ux design',
  'a'.repeat(60),
  'a'.repeat(61),
  'a'.repeat(2001),
  ` ${'b'.repeat(2000)} `,
  '2',
  '4.5',
  '0',
  '-1',
  '1e3',
  0,
  1,
  2,
  4,
  5,
  2.5,
  10_000,
  10_001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  'true',
  'paid',
  'PAID',
  ['paid'],
  { page: 2 },
  ...Object.keys(SORT_OPTIONS),
  ...Object.keys(PRICE_BANDS),
  ...Object.keys(DURATION_BANDS),
]

describe('route search params without zod', () => {
  it('optional text, page, flag and enum answer as the zod/mini schemas did', () => {
    const status = optionalEnum(['paid', 'refunded'] as const)
    for (const value of VALUES) {
      expect(optionalText(value), `text ${String(value)}`).toEqual(z.parse(reference.text, value))
      expect(optionalPage(value), `page ${String(value)}`).toEqual(z.parse(reference.page, value))
      expect(optionalFlag(value), `flag ${String(value)}`).toEqual(z.parse(reference.flag, value))
      expect(status(value), `enum ${String(value)}`).toEqual(z.parse(reference.status, value))
    }
  })

  it("the catalogue's params answer as before for every field and value", () => {
    for (const field of Object.keys(reference.catalogue.shape)) {
      for (const value of VALUES) {
        const input = { [field]: value, unknown: 'dropped' }
        // toStrictEqual: a bad value must come back as an explicit undefined, as zod's did, for the router merges
        // the raw params under the result and only that replaces a tampered one.
        expect(catalogueSearchSchema(input), `${field}=${String(value)}`).toStrictEqual(
          z.parse(reference.catalogue, input),
        )
      }
    }
  })

  it('drops unknown params, keeps a bad one as undefined, and a schema without some params ignores them', () => {
    const schema = searchParams({ token: optionalText, page: optionalPage })
    expect(schema({ token: ' abc ', page: 3, other: 'x' })).toStrictEqual({ token: 'abc', page: 3 })
    expect(schema({ page: 'abc' })).toStrictEqual({ page: undefined })
    const category = omitParams(catalogueSearchSchema, ['category', 'search'])
    expect(category({ category: 'design', search: 'x', sort: 'newest', page: '2' })).toStrictEqual({
      sort: 'newest',
      page: 2,
    })
  })
})
