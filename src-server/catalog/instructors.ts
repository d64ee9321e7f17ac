// Instructor profiles as the shop shows them (/instructors/{slug}): the profile and its published courses.
// The catalogue only reads instructors; a creator's profile is written by creators/profiles.ts.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'
import { courseCardColumns } from './repository.ts'

export async function findInstructorBySlug(db: DB, slug: string) {
  return db
    .selectFrom('instructors')
    .select(['id', 'slug', 'name', 'title', 'bio', 'image_url', 'links', 'user_id'])
    .where('slug', '=', slug)
    .executeTakeFirst()
}

/** Published courses as cards with their learners, newest first; the caller narrows which. */
const publishedCards = (db: DB, limit: number) =>
  db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select([...courseCardColumns, 'courses.students_count'])
    .where('courses.status', '=', 'published')
    .orderBy('courses.published_at', 'desc')
    .orderBy('courses.id')
    .limit(limit)

/** The instructor's published courses as cards (newest first), with their learners. */
export function publishedCoursesOf(db: DB, instructorId: string, limit = 200) {
  return publishedCards(db, limit).where('courses.instructor_id', '=', instructorId).execute()
}

/** Profiles with at least one published course: the sitemap's instructor pages (an empty profile is left out). */
const withPublishedCourse = (db: DB) =>
  db
    .selectFrom('instructors')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('courses')
          .select('courses.id')
          .whereRef('courses.instructor_id', '=', 'instructors.id')
          .where('courses.status', '=', 'published'),
      ),
    )

export async function countListedInstructors(db: DB): Promise<number> {
  const row = await withPublishedCourse(db)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** A slice of those profiles by slug (no last change: a profile has no date of its own). */
export function listInstructorSlugs(db: DB, { offset, limit }: { offset: number; limit: number }) {
  return withPublishedCourse(db)
    .select('instructors.slug')
    .orderBy('instructors.slug')
    .offset(offset)
    .limit(limit)
    .execute()
}

/** Keeps the courses' shown instructor name in step with a renamed profile (in the caller's transaction). */
export async function renameInstructorOnCourses(trx: DB, instructorId: string, name: string) {
  await trx
    .updateTable('courses')
    .set({ instructor_name: name })
    .where('instructor_id', '=', instructorId)
    .where('instructor_name', '!=', name)
    .execute()
}

/** Whether a profile answers at /instructors/{slug} (the page's HTTP status). */
export async function instructorSlugExists(db: DB, slug: string): Promise<boolean> {
  return Boolean(await db.selectFrom('instructors').select('id').where('slug', '=', slug).executeTakeFirst())
}

/** Published courses among these ids as cards (newest first): a school's public page. */
export function publishedCoursesByIds(db: DB, courseIds: readonly string[], limit = 200) {
  if (courseIds.length === 0) return Promise.resolve([])
  return publishedCards(db, limit).where('courses.id', 'in', courseIds).execute()
}

/** The instructor profiles of these users (a school's teachers), in the given order. */
export async function instructorProfilesOf(db: DB, userIds: readonly string[]) {
  if (userIds.length === 0) return []
  const rows = await db
    .selectFrom('instructors')
    .select(['slug', 'name', 'title', 'image_url', 'user_id'])
    .where('user_id', 'in', userIds)
    .execute()
  return userIds.flatMap((id) => rows.filter((row) => row.user_id === id))
}

/** How many instructors teach a published course: the home page's course creators. */
export async function countTeachingInstructors(db: DB): Promise<number> {
  const row = await db
    .selectFrom('courses')
    .select(sql<number>`count(distinct instructor_id)::int`.as('instructors'))
    .where('status', '=', 'published')
    .executeTakeFirst()
  return row?.instructors ?? 0
}
