// Bundle inputs (issue 32), shared by the studio and admin editors and their procedures (the server enforces them).
import { z } from 'zod'
import { type CoursePriceRow, coursePrices } from '../course-prices.ts'
import { CURRENCIES, formatMoney } from '../money.ts'
import { courseIdSchema } from './catalog.ts'

export const BUNDLE_LIMITS = { title: 200, description: 4000, minCourses: 2, maxCourses: 20, maxPriceMinor: 999_999 }

/**
 * A course's price in a bundle's currency (decision 0069: a course may be sold in both currencies and list either):
 * what the bundle's saving and its split weigh. 0 for a free course; null when the course is not sold in that currency.
 */
export function priceInBundleCurrency(course: CoursePriceRow, currency: string): number | null {
  const prices = coursePrices(course)
  if (prices.USD === null && prices.GBP === null) return 0
  return currency === 'GBP' || currency === 'USD' ? prices[currency] : null
}

type OnSaleCourse = CoursePriceRow & { status: string }

/** A bundle as its sale rules read it: its currency and its price. */
export interface BundlePrice {
  currency: string
  priceMinor: number
}

/** The courses' total in the bundle's currency (a course not sold in it counts 0: that rule is checked first). */
export const coursesTotalMinor = (courses: readonly CoursePriceRow[], currency: string) =>
  courses.reduce((sum, course) => sum + (priceInBundleCurrency(course, currency) ?? 0), 0)

/**
 * The rule a bundle breaks, with the courses that break it, or null while it can be bought: at least two courses,
 * every one of them still on sale, in the bundle's currency, and a price below their total. The editors refuse a
 * price that saves nothing; a course's price lowered later (a reviewed change, staff's edit) can bring the total down
 * to it, and the bundle is then off sale until its price is lowered.
 */
function brokenSaleRule<Course extends OnSaleCourse>(courses: readonly Course[], bundle: BundlePrice) {
  if (courses.length < BUNDLE_LIMITS.minCourses) return { rule: 'size' as const, courses: [] as Course[] }
  const unpublished = courses.filter((course) => course.status !== 'published')
  if (unpublished.length > 0) return { rule: 'published' as const, courses: unpublished }
  const elsewhere = courses.filter((course) => priceInBundleCurrency(course, bundle.currency) === null)
  if (elsewhere.length > 0) return { rule: 'currency' as const, courses: elsewhere }
  if (bundle.priceMinor >= coursesTotalMinor(courses, bundle.currency)) return { rule: 'price' as const, courses }
  return null
}

export function bundleOnSale(courses: readonly OnSaleCourse[], bundle: BundlePrice): boolean {
  return brokenSaleRule(courses, bundle) === null
}

/**
 * Why a bundle cannot be bought, in the creator's words, or null while it can. The studio and admin lists show it,
 * since the public page then answers 404 (decision 0042).
 */
export function bundleOffSaleReason(
  courses: readonly (OnSaleCourse & { title: string })[],
  bundle: BundlePrice,
): string | null {
  const { currency } = bundle
  const broken = brokenSaleRule(courses, bundle)
  if (!broken) return null
  if (broken.rule === 'size') return `a bundle needs at least ${BUNDLE_LIMITS.minCourses} courses`
  if (broken.rule === 'price') {
    const total = formatMoney(coursesTotalMinor(courses, currency), currency)
    return `its price (${formatMoney(bundle.priceMinor, currency)}) is not below its courses’ total (${total}) since a course’s price went down: lower it to sell the bundle again`
  }
  const named = `${broken.courses.map((course) => `“${course.title}”`).join(', ')} ${broken.courses.length === 1 ? 'is' : 'are'}`
  return broken.rule === 'published'
    ? `${named} not published, and every course must be on sale`
    : `${named} not sold in ${currency}, and every course must be sold in the bundle’s currency`
}

export const BUNDLE_MESSAGES = {
  title: 'Please enter a title (at most 200 characters)',
  slug: 'Use lowercase letters, digits and single dashes (at most 80 characters)',
  slugTaken: 'Another bundle already uses this address',
  price: 'Enter a price above 0 with at most two decimals, such as 49.99',
  tooFewCourses: 'A bundle needs at least 2 different courses',
  tooManyCourses: 'A bundle holds at most 20 courses',
  notYourCourse: 'You can only bundle your own published courses',
  unpublished: 'Only published courses can be bundled',
  mixedCurrency: 'All courses of a bundle must be sold in the same currency',
  currency: 'The bundle price must be in the courses’ currency',
  notCheaper: 'The bundle price must be less than the courses’ total',
  /** A creator's new course price that would bring one of their published bundles' courses to its price or below. */
  undercut: (title: string, bundlePrice: string, coursesTotal: string) =>
    `Your bundle “${title}” costs ${bundlePrice}, and at this price its courses would come to ${coursesTotal}: a bundle must cost less than its courses. Lower the bundle’s price first, in Bundles.`,
  planNeeded: 'Bundles are a Pro feature: choose the Pro or Enterprise plan to sell bundles',
  notFound: 'Bundle not found',
  sold: 'This bundle has been bought, so it stays with its buyers’ orders: unpublish it to take it off sale',
  allOwned: 'You already own every course in this bundle',
} as const

export const bundleSlugSchema = z
  .string()
  .trim()
  .min(1, BUNDLE_MESSAGES.slug)
  .max(80, BUNDLE_MESSAGES.slug)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, BUNDLE_MESSAGES.slug)

/** A price in major units as typed ("49.99"); the server turns it into minor units. */
export const bundlePriceSchema = z
  .string()
  .trim()
  .regex(/^\d{1,4}(\.\d{1,2})?$/, BUNDLE_MESSAGES.price)
  .refine((value) => Number(value) > 0, BUNDLE_MESSAGES.price)

export const bundleInput = z.strictObject({
  title: z.string().trim().min(1, BUNDLE_MESSAGES.title).max(BUNDLE_LIMITS.title, BUNDLE_MESSAGES.title),
  slug: bundleSlugSchema,
  description: z.string().trim().max(BUNDLE_LIMITS.description).default(''),
  courseIds: z
    .array(courseIdSchema)
    .min(BUNDLE_LIMITS.minCourses, BUNDLE_MESSAGES.tooFewCourses)
    .max(BUNDLE_LIMITS.maxCourses, BUNDLE_MESSAGES.tooManyCourses)
    .refine((ids) => new Set(ids).size === ids.length, BUNDLE_MESSAGES.tooFewCourses),
  currency: z.enum(CURRENCIES),
  price: bundlePriceSchema,
  published: z.boolean().default(false),
})
export type BundleInput = z.output<typeof bundleInput>

export const bundleIdInput = z.strictObject({ bundleId: z.uuid() })
export const bundleUpdateInput = bundleInput.extend({ bundleId: z.uuid() })
export const bundleSlugInput = z.strictObject({ slug: z.string().trim().min(1).max(80) })
export const courseBundlesInput = z.strictObject({ courseId: courseIdSchema })
