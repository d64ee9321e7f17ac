// Catalogue reads. Public queries select explicit columns and only published courses.
import type { CourseStatus } from '../../db/types.ts'
import { compiledOnce } from '../kernel/compiled-query.ts'
import type { DB } from '../kernel/db.ts'
import { keptRead } from './catalogue-snapshot.ts'

export const courseCardColumns = [
  'courses.id',
  'courses.title',
  'courses.instructor_name',
  'courses.image_url',
  'courses.price_minor',
  'courses.original_price_minor',
  'courses.currency',
  'courses.rating',
  'courses.review_count',
  'courses.featured',
  'courses.lessons_count',
  'courses.duration_minutes',
  'courses.level',
  'courses.description',
  'categories.name as category_name',
  'categories.slug as category_slug',
] as const

export type CourseCardRow = Awaited<ReturnType<typeof listFeaturedCourses>>[number]

const featuredCourses = compiledOnce((db: DB, limit: number) =>
  db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select(courseCardColumns)
    .where('courses.status', '=', 'published')
    .where('courses.featured', '=', true)
    .orderBy('courses.created_at', 'asc')
    .limit(limit),
)
const firstCourses = compiledOnce((db: DB, limit: number) =>
  db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select(courseCardColumns)
    .where('courses.status', '=', 'published')
    .orderBy('courses.created_at', 'asc')
    .limit(limit),
)

/**
 * Featured published courses (their partial index); when none is flagged, the first ones (spec §4: first 4). Kept
 * with the catalogue snapshot: the home page asks on every visit (issue 37).
 */
export function listFeaturedCourses(db: DB, limit: number, fallbackCount: number) {
  return keptRead(db, `featured ${limit} ${fallbackCount}`, async () => {
    const featured = await featuredCourses(db, limit)
    if (featured.length > 0) return featured
    return firstCourses(db, fallbackCount)
  })
}

const publishedCourse = compiledOnce((db: DB, id: string) =>
  db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .leftJoin('instructors', 'instructors.id', 'courses.instructor_id')
    .select([
      'instructors.title as instructor_title',
      'instructors.bio as instructor_bio',
      'instructors.image_url as instructor_image',
      'instructors.slug as instructor_slug',
      ...courseCardColumns,
      'courses.students_count',
      'courses.language',
      'courses.certificate',
      'courses.what_you_will_learn',
      'courses.requirements',
      'courses.included_in_premium',
      'courses.instructor_id',
      'courses.updated_at',
      'courses.subtitle',
      'courses.owner_id',
      'courses.price_usd_minor',
      'courses.price_gbp_minor',
    ])
    .where('courses.id', '=', id)
    .where('courses.status', '=', 'published'),
)

/** One published course with everything the detail page shows (instructor card included), or undefined. */
export async function findPublishedCourse(db: DB, id: string) {
  const [row] = await publishedCourse(db, id)
  return row
}

/**
 * Categories with how many published courses each holds (home page cards, category pages), from the counts a
 * trigger keeps per filter group (decision 0022): no scan of the courses.
 */
const categoriesWithCounts = compiledOnce((db: DB) =>
  db
    .selectFrom('categories')
    .select((eb) => [
      'categories.slug',
      'categories.name',
      'categories.description',
      'categories.icon',
      eb
        .selectFrom('catalog_facet_counts')
        .select((count) => count.fn.coalesce(count.fn.sum<string>('courses'), count.lit(0)).as('n'))
        .whereRef('catalog_facet_counts.category_id', '=', 'categories.id')
        .as('course_count'),
    ])
    .orderBy('categories.position'),
)

/** The categories with their published-course counts, kept with the catalogue snapshot (the home page's, issue 37). */
export function listCategoriesWithCounts(db: DB) {
  return keptRead(db, 'categories with counts', () => categoriesWithCounts(db))
}

/** Published course ids with their last change, by id, a slice at a time (a sitemap file). */
export function listPublishedCourseIds(db: DB, slice: { offset: number; limit: number }) {
  return db
    .selectFrom('courses')
    .select(['id', 'updated_at'])
    .where('status', '=', 'published')
    .orderBy('id')
    .offset(slice.offset)
    .limit(slice.limit)
    .execute()
}

/** How many courses are published: the sum of the kept facet counts (a trigger keeps them; no scan of courses). */
export async function countPublishedCourses(db: DB): Promise<number> {
  const row = await db
    .selectFrom('catalog_facet_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('courses'), eb.lit(0)).as('n'))
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** Title, instructor and image of the given courses (any status: a learner keeps an archived course). */
export function listCourseSummaries(db: DB, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('courses')
    .select(['id', 'title', 'instructor_name', 'image_url', 'status', 'included_in_premium'])
    .where('id', 'in', ids)
    .execute()
}

/** Whether a course has this id and a status that is (`=`) or is not (`!=`) the one given. */
export async function courseExists(db: DB, id: string, op: '=' | '!=', status: CourseStatus): Promise<boolean> {
  const row = await db
    .selectFrom('courses')
    .select('id')
    .where('id', '=', id)
    .where('status', op, status)
    .executeTakeFirst()
  return row !== undefined
}

/** Whether a course page exists for shoppers (published); the SPA fallback's 404 asks it. */
export const publishedCourseExists = (db: DB, id: string) => courseExists(db, id, '=', 'published')

export async function categorySlugExists(db: DB, slug: string): Promise<boolean> {
  return (await db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined
}
