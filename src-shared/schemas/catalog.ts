import { z } from 'zod'
import { CATALOGUE_PAGE_SIZE, DURATION_BANDS, PRICE_BANDS, SORT_OPTIONS } from '../constants.ts'
import { CURRENCIES } from '../money.ts'

export const courseIdSchema = z.string().trim().min(1).max(120)
/** `catalog.course`'s input (one published course by id). */
export const courseDetailInput = z.object({ id: courseIdSchema })
export const categorySlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(60)
  .regex(/^[a-z0-9-]*$/, 'Unknown category')

export const featuredCoursesInput = z
  .object({ limit: z.number().int().min(1).max(24).default(8) })
  .default({ limit: 8 })

const sortKeys = Object.keys(SORT_OPTIONS) as [keyof typeof SORT_OPTIONS, ...(keyof typeof SORT_OPTIONS)[]]
const priceKeys = Object.keys(PRICE_BANDS) as [keyof typeof PRICE_BANDS, ...(keyof typeof PRICE_BANDS)[]]
const durationKeys = Object.keys(DURATION_BANDS) as [keyof typeof DURATION_BANDS, ...(keyof typeof DURATION_BANDS)[]]

export const MAX_PAGE_SIZE = 48

const fields = {
  search: z.string().trim().max(100),
  category: categorySlugSchema,
  sort: z.enum(sortKeys),
  price: z.enum(priceKeys),
  rating: z.coerce.number().int().min(1).max(4),
  duration: z.enum(durationKeys),
  page: z.coerce.number().int().min(1).max(10_000),
}

/** The server's input: strict, so a bad value is a clear BAD_REQUEST naming the field. */
export const catalogueQuerySchema = z.object({
  search: fields.search.optional(),
  category: fields.category.optional(),
  sort: fields.sort.default('popular'),
  price: fields.price.optional(),
  rating: fields.rating.optional(),
  duration: fields.duration.optional(),
  page: fields.page.default(1),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(CATALOGUE_PAGE_SIZE),
})
export type CatalogueQuery = z.infer<typeof catalogueQuerySchema>
export type CatalogueQueryInput = z.input<typeof catalogueQuerySchema>

// What the public catalogue procedures answer (their .output(): the public API's shapes).

/** A course card: the catalogue, the featured courses and the top of a course page. */
export const courseCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  instructor: z.string(),
  description: z.string(),
  category: z.string(),
  categorySlug: z.string(),
  image: z.string(),
  priceMinor: z.number().int(),
  originalPriceMinor: z.number().int().nullable(),
  currency: z.string(),
  rating: z.number(),
  reviewCount: z.number().int(),
  featured: z.boolean(),
  lessons: z.number().int(),
  durationMinutes: z.number().int(),
  level: z.string(),
})

/** A category with its published-course count. */
export const categoryCountSchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  count: z.number().int(),
})

/** The home page's statistics band, counted on the server (flows/marketplace-stats.ts). */
export const marketplaceStatsSchema = z.object({
  activeStudents: z.number().int().nonnegative(),
  courseCreators: z.number().int().nonnegative(),
  creatorEarnings: z.array(z.object({ currency: z.enum(CURRENCIES), amountMinor: z.number().int() })),
})

/** A facet's count; null when the counts are not known (the page then shows the options without numbers). */
const facetCount = z.number().int().nullable()
type PriceBand = keyof typeof PRICE_BANDS
type DurationBand = keyof typeof DURATION_BANDS

/** One page of the catalogue with its facet counts: the public `catalog.search` answer. */
export const catalogueSearchOutput = z.object({
  total: z.number().int(),
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  category: z.object({ slug: z.string(), name: z.string() }).nullable(),
  facets: z.object({
    categories: z.array(z.object({ slug: z.string(), name: z.string(), count: facetCount })),
    allCategories: facetCount,
    price: z.record(z.enum(Object.keys(PRICE_BANDS) as [PriceBand, ...PriceBand[]]), facetCount),
    rating: z.array(z.object({ floor: z.number(), count: facetCount })),
    duration: z.record(z.enum(Object.keys(DURATION_BANDS) as [DurationBand, ...DurationBand[]]), facetCount),
  }),
  items: z.array(courseCardSchema),
})

/** A course page's outline: sections in order, each with its lessons (titles and lengths only, never content). */
export const curriculumSectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  lessons: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      durationSeconds: z.number().int(),
      isPreview: z.boolean(),
      kind: z.enum(['article', 'video', 'quiz']),
      durationFromVideo: z.literal(true).optional(),
    }),
  ),
})

/** A published course's page: the public `catalog.course` answer (null: the not-found variant). */
export const courseDetailSchema = courseCardSchema.extend({
  /** A creator's one-line pitch ('' for house courses): the hero shows it instead of the description. */
  subtitle: z.string(),
  /** What a buyer pays in each currency, minor units (null: not sold in it; both null: free), decision 0069. */
  prices: z.object({ USD: z.number().int().nullable(), GBP: z.number().int().nullable() }),
  /** A creator course's description, written in Markdown, rendered and sanitised on the server (null: house course). */
  descriptionHtml: z.string().nullable(),
  studentsCount: z.number().int(),
  language: z.string(),
  certificate: z.boolean(),
  whatYouWillLearn: z.array(z.string()),
  requirements: z.array(z.string()),
  includedInPremium: z.boolean(),
  curriculum: z.array(curriculumSectionSchema),
  instructorId: z.string().nullable(),
  instructorProfile: z.object({
    name: z.string(),
    title: z.string(),
    bio: z.string(),
    image: z.string(),
    /** The profile page's address (/instructors/{slug}); null when the course names no instructor profile. */
    slug: z.string().nullable(),
  }),
  lastUpdated: z.string(),
})
