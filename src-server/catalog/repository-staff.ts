// Admin reads of courses: every status except archived (an archived course is "deleted" for staff but kept
// for order history), server-side search and pagination, and the filter counts in one query.
import { sql } from 'kysely'
import { ADMIN_PAGE_SIZE, type CourseFilter } from '../../src-shared/schemas/admin.ts'
import type { DB } from '../kernel/db.ts'
import { likePattern } from '../kernel/like-pattern.ts'
import { pageOf } from '../kernel/paging.ts'

export const adminCourseColumns = [
  'courses.id',
  'courses.title',
  'courses.description',
  'courses.category_id',
  'categories.name as category_name',
  'courses.instructor_name',
  'courses.image_url',
  'courses.price_minor',
  'courses.original_price_minor',
  'courses.currency',
  'courses.price_usd_minor',
  'courses.price_gbp_minor',
  'courses.level',
  'courses.language',
  'courses.certificate',
  'courses.included_in_premium',
  'courses.status',
  'courses.featured',
  'courses.lessons_count',
  'courses.duration_minutes',
  'courses.what_you_will_learn',
  'courses.requirements',
  'courses.updated_at',
] as const

function visibleCourses(db: DB) {
  return db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .where('courses.status', '!=', 'archived')
}

export async function listAdminCourses(db: DB, filter: CourseFilter, search: string, page: number) {
  let query = visibleCourses(db)
  if (filter === 'published' || filter === 'draft') query = query.where('courses.status', '=', filter)
  if (filter === 'featured') query = query.where('courses.featured', '=', true)
  if (search) {
    const pattern = likePattern(search)
    query = query.where((eb) =>
      eb.or([eb('courses.title', 'ilike', pattern), eb('courses.instructor_name', 'ilike', pattern)]),
    )
  }
  const [courses, counts] = await Promise.all([
    pageOf(
      query.select(adminCourseColumns).orderBy('courses.created_at', 'desc').orderBy('courses.id'),
      page,
      ADMIN_PAGE_SIZE,
    ),
    courseCounts(db),
  ])
  return { ...courses, counts }
}

/** The counts beside each filter (All, Published, Draft, Featured). */
export async function courseCounts(db: DB) {
  const row = await db
    .selectFrom('courses')
    .where('status', '!=', 'archived')
    .select([
      sql<string>`count(*)`.as('all'),
      sql<string>`count(*) filter (where status = 'published')`.as('published'),
      sql<string>`count(*) filter (where status = 'draft')`.as('draft'),
      sql<string>`count(*) filter (where featured)`.as('featured'),
    ])
    .executeTakeFirstOrThrow()
  return {
    all: Number(row.all),
    published: Number(row.published),
    draft: Number(row.draft),
    featured: Number(row.featured),
  }
}

export function findAdminCourse(db: DB, id: string) {
  return visibleCourses(db).select(adminCourseColumns).where('courses.id', '=', id).executeTakeFirst()
}
export type AdminCourseRow = NonNullable<Awaited<ReturnType<typeof findAdminCourse>>>
