// Bundles (issue 32): several courses sold at one price. This leaf owns bundles and bundle_courses; it reads the
// courses it bundles. The split of a bundle's price over its courses is made here once per order (largest
// remainder, weighted by the courses' prices in the bundle's currency) and stored on the order's lines by orders/.
import type { ExpressionBuilder, Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import { allocate, type Currency } from '../../src-shared/money.ts'
import {
  BUNDLE_MESSAGES,
  bundleOffSaleReason,
  bundleOnSale,
  coursesTotalMinor,
  priceInBundleCurrency,
} from '../../src-shared/schemas/bundles.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isUniqueViolation } from '../kernel/pg-errors.ts'

export interface BundleValues {
  slug: string
  title: string
  description: string
  currency: Currency
  priceMinor: number
  published: boolean
  courseIds: readonly string[]
}

/** The courses named for a bundle, as the rules need them (order of the input kept). */
export async function coursesForBundle(db: DB, courseIds: readonly string[]) {
  if (courseIds.length === 0) return []
  const rows = await db
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor', 'currency', 'status', 'owner_id'])
    .where('id', 'in', courseIds)
    .execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  return courseIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))
}

/** The creator whose bundle this slug is (null: staff's, or no such bundle): a school's domain serves its own only. */
export async function bundleOwnerBySlug(db: DB, slug: string): Promise<string | null> {
  const row = await db.selectFrom('bundles').select('owner_id').where('slug', '=', slug).executeTakeFirst()
  return row?.owner_id ?? null
}

export function findBundleOwner(db: DB, bundleId: string) {
  return db.selectFrom('bundles').select(['id', 'owner_id']).where('id', '=', bundleId).executeTakeFirst()
}

/** A new bundle; ownerId null for staff's. A taken slug is a conflict. */
export async function insertBundle(
  db: DB,
  ownerId: string | null,
  actorId: string,
  values: BundleValues,
): Promise<{ id: string }> {
  return write(db, async (trx) => {
    const row = await trx
      .insertInto('bundles')
      .values({ ...columns(values), owner_id: ownerId, created_by: actorId })
      .returning('id')
      .executeTakeFirstOrThrow()
    await setCourses(trx, row.id, values.courseIds)
    return row
  })
}

export async function updateBundle(db: DB, bundleId: string, values: BundleValues): Promise<void> {
  await write(db, async (trx) => {
    await trx
      .updateTable('bundles')
      .set({ ...columns(values), updated_at: clock.now() })
      .where('id', '=', bundleId)
      .execute()
    await trx.deleteFrom('bundle_courses').where('bundle_id', '=', bundleId).execute()
    await setCourses(trx, bundleId, values.courseIds)
  })
}

/**
 * Deletes a bundle no order holds; false when one does (its lines are refunded as the bundle, decision 0149, so the
 * bundle stays: it can be unpublished). Run in a transaction: the row lock waits for an order being placed with the
 * bundle (its line's foreign key holds a key-share lock on the row), so the check then sees that order.
 */
export async function deleteUnsoldBundle(trx: DB, bundleId: string): Promise<boolean> {
  await trx.selectFrom('bundles').select('id').where('id', '=', bundleId).forUpdate().execute()
  const sold = await trx.selectFrom('order_items').select('id').where('bundle_id', '=', bundleId).limit(1).execute()
  if (sold.length > 0) return false
  await trx.deleteFrom('bundles').where('id', '=', bundleId).execute()
  return true
}

function columns(values: BundleValues) {
  return {
    slug: values.slug,
    title: values.title,
    description: values.description,
    currency: values.currency,
    price_minor: values.priceMinor,
    published: values.published,
  }
}

async function setCourses(trx: DB, bundleId: string, courseIds: readonly string[]) {
  await trx
    .insertInto('bundle_courses')
    .values(courseIds.map((courseId, position) => ({ bundle_id: bundleId, course_id: courseId, position })))
    .execute()
}

async function write<T>(db: DB, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(db, work)
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('conflict', BUNDLE_MESSAGES.slugTaken, { field: 'slug' })
    }
    throw error
  }
}

/** "Save 35 %": what the bundle saves on its courses' list prices, rounded down (never overstated). */
export function savingPercent(priceMinor: number, listTotalMinor: number): number {
  if (listTotalMinor <= 0 || priceMinor >= listTotalMinor) return 0
  return Math.floor(((listTotalMinor - priceMinor) * 100) / listTotalMinor)
}

/** Bundles with their courses: one owner's (the studio), or every bundle (ownerId undefined: the admin). */
export async function listBundles(db: DB, ownerId?: string) {
  let query = db
    .selectFrom('bundles as b')
    .leftJoin('users as u', 'u.id', 'b.owner_id')
    .select([
      'b.id',
      'b.slug',
      'b.title',
      'b.description',
      'b.currency',
      'b.price_minor',
      'b.published',
      'b.owner_id',
      'u.first_name as owner_first_name',
      'u.last_name as owner_last_name',
      // Bought at least once: it stays (it can be unpublished, not deleted).
      (eb) =>
        eb.exists(eb.selectFrom('order_items as oi').select('oi.id').whereRef('oi.bundle_id', '=', 'b.id')).as('sold'),
    ])
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id')
  if (ownerId !== undefined) query = query.where('b.owner_id', '=', ownerId)
  const bundles = await query.execute()
  const courses = await bundleCourseRows(
    db,
    bundles.map((b) => b.id),
  )
  return bundles.map((bundle) => describe(bundle, courses.get(bundle.id) ?? []))
}

/** Each bundle's owner (a creator), by bundle id; a bundle made by staff has none. */
export async function bundleOwners(db: DB, bundleIds: readonly string[]): Promise<Map<string, string | null>> {
  if (bundleIds.length === 0) return new Map()
  const rows = await db.selectFrom('bundles').select(['id', 'owner_id']).where('id', 'in', bundleIds).execute()
  return new Map(rows.map((row) => [row.id, row.owner_id]))
}

/** Each bundle's courses in their order, with what the bundle's price and sale depend on. */
export async function bundleCourseRows(db: DB, bundleIds: readonly string[]) {
  const byBundle = new Map<string, Awaited<ReturnType<typeof courseRows>>>()
  if (bundleIds.length === 0) return byBundle
  for (const row of await courseRows(db, bundleIds)) {
    const list = byBundle.get(row.bundle_id) ?? []
    list.push(row)
    byBundle.set(row.bundle_id, list)
  }
  return byBundle
}

function courseRows(db: DB, bundleIds: readonly string[]) {
  return db
    .selectFrom('bundle_courses as bc')
    .innerJoin('courses as c', 'c.id', 'bc.course_id')
    .select([
      'bc.bundle_id',
      'c.id',
      'c.title',
      'c.image_url',
      'c.instructor_name',
      'c.price_minor',
      'c.currency',
      'c.price_usd_minor',
      'c.price_gbp_minor',
      'c.status',
    ])
    .where('bc.bundle_id', 'in', bundleIds)
    .orderBy('bc.bundle_id')
    .orderBy('bc.position')
    .execute()
}

type BundleRow = { id: string; slug: string; title: string; currency: string; price_minor: number }
type CourseRow = Awaited<ReturnType<typeof courseRows>>[number]

function describe<B extends BundleRow>(bundle: B, courses: readonly CourseRow[]) {
  const priced = courses.map((course) => ({ course, priceMinor: priceInBundleCurrency(course, bundle.currency) }))
  const listTotalMinor = coursesTotalMinor(courses, bundle.currency)
  const sale = { currency: bundle.currency, priceMinor: bundle.price_minor }
  return {
    ...bundle,
    /** Every course still on sale, in the bundle's currency, for more than the bundle: only then can it be bought. */
    onSale: bundleOnSale(courses, sale),
    /** Why it cannot be bought (null while it can): the studio and admin lists say it (stop 84). */
    offSaleReason: bundleOffSaleReason(courses, sale),
    /** The courses' total in the bundle's currency: a true figure only while the bundle is on sale. */
    listTotalMinor,
    savingPercent: savingPercent(bundle.price_minor, listTotalMinor),
    courses: priced.map(({ course, priceMinor }) => ({
      id: course.id,
      title: course.title,
      imageUrl: course.image_url,
      instructorName: course.instructor_name,
      priceMinor: priceMinor ?? 0,
      published: course.status === 'published',
    })),
  }
}

/** Published bundles whose courses are all on sale: by slug (the bundle page), or those holding a course. */
export async function publishedBundles(db: DB, filter: { slug?: string; courseId?: string; ownerId?: string } = {}) {
  let query = db
    .selectFrom('bundles as b')
    .select(['b.id', 'b.slug', 'b.title', 'b.description', 'b.currency', 'b.price_minor'])
    .where('b.published', '=', true)
    .orderBy('b.created_at', 'desc')
    .orderBy('b.id')
  if (filter.slug !== undefined) query = query.where('b.slug', '=', filter.slug)
  if (filter.ownerId !== undefined) query = query.where('b.owner_id', '=', filter.ownerId)
  if (filter.courseId !== undefined) query = query.where(holdsCourse(filter.courseId))
  const bundles = await query.limit(50).execute()
  const courses = await bundleCourseRows(
    db,
    bundles.map((b) => b.id),
  )
  return bundles.map((bundle) => describe(bundle, courses.get(bundle.id) ?? [])).filter((bundle) => bundle.onSale)
}

/** A `bundles as b` row holds this course. */
const holdsCourse = (courseId: string) => (eb: ExpressionBuilder<Database & { b: Database['bundles'] }, 'b'>) =>
  eb.exists(
    eb
      .selectFrom('bundle_courses as bc')
      .select('bc.course_id')
      .whereRef('bc.bundle_id', '=', 'b.id')
      .where('bc.course_id', '=', courseId),
  )

/** The owner's published bundles holding this course, with their courses' prices: what a price change is checked on. */
export async function ownerBundlesHolding(db: DB, ownerId: string, courseId: string) {
  const bundles = await db
    .selectFrom('bundles as b')
    .select(['b.id', 'b.title', 'b.currency', 'b.price_minor'])
    .where('b.published', '=', true)
    .where('b.owner_id', '=', ownerId)
    .where(holdsCourse(courseId))
    .execute()
  const courses = await bundleCourseRows(
    db,
    bundles.map((bundle) => bundle.id),
  )
  return bundles.map((bundle) => ({ ...bundle, courses: courses.get(bundle.id) ?? [] }))
}

/** The bundle page's bundle: published and every course on sale, else null (the page says not found). */
export async function publicBundle(db: DB, slug: string) {
  const [bundle] = await publishedBundles(db, { slug })
  return bundle ?? null
}

/**
 * What buying the bundle puts in an order: one line per course with its share of the bundle price, split by largest
 * remainder in proportion to the courses' prices in the bundle's currency (equal shares if all are free). The shares
 * sum to the price. Refused when the bundle is unpublished or one of its courses is no longer on sale (or no longer sold
 * in the bundle's currency).
 */
export async function bundleOrderLines(db: DB, bundleId: string) {
  const bundle = await db
    .selectFrom('bundles')
    .select(['id', 'slug', 'title', 'currency', 'price_minor'])
    .where('id', '=', bundleId)
    .where('published', '=', true)
    .executeTakeFirst()
  if (!bundle) throw new DomainError('not_found', BUNDLE_MESSAGES.notFound)
  const described = describe(bundle, await courseRows(db, [bundle.id]))
  if (!described.onSale) throw new DomainError('conflict', BUNDLE_MESSAGES.notFound)
  const weights = described.courses.map((course) => course.priceMinor)
  const shares = allocate(bundle.price_minor, weights.every((weight) => weight === 0) ? weights.map(() => 1) : weights)
  return {
    bundle: { id: bundle.id, title: bundle.title, currency: bundle.currency as Currency },
    lines: described.courses.map((course, index) => ({
      courseId: course.id,
      title: course.title,
      detail: `${course.instructorName} · in ${bundle.title}`,
      priceMinor: shares[index] as number,
    })),
  }
}

/** The courses of each bundle (the cart's warning about courses already held). */
export async function bundleCourseIds(db: DB, bundleIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>()
  if (bundleIds.length === 0) return result
  const rows = await db
    .selectFrom('bundle_courses')
    .select(['bundle_id', 'course_id'])
    .where('bundle_id', 'in', bundleIds)
    .orderBy('position')
    .execute()
  for (const row of rows) result.set(row.bundle_id, [...(result.get(row.bundle_id) ?? []), row.course_id])
  return result
}

/** The courses an editor may bundle: a creator's own published courses, or (ownerId undefined) every published one. */
export async function bundleCourseChoices(db: DB, ownerId?: string) {
  let query = db
    .selectFrom('courses')
    .select(['id', 'title', 'price_minor', 'currency'])
    .where('status', '=', 'published')
    .orderBy('title')
    .orderBy('id')
    .limit(500)
  if (ownerId !== undefined) query = query.where('owner_id', '=', ownerId)
  const rows = await query.execute()
  return rows.map((row) => ({ id: row.id, title: row.title, priceMinor: row.price_minor, currency: row.currency }))
}

/** Whether /bundles/{slug} shows a bundle (published, every course on sale): the page's HTTP status. */
export async function bundleSlugExists(db: DB, slug: string): Promise<boolean> {
  return (await publishedBundles(db, { slug })).length > 0
}
