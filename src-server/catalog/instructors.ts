// Instructor profiles as the shop shows them (/instructors/{slug}): the profile and its published courses.
// The catalogue only reads instructors; a creator's profile is written by creators/profiles.ts.
import type { DB } from '../kernel/db.ts'
import { courseCardColumns } from './repository.ts'

export async function findInstructorBySlug(db: DB, slug: string) {
  return db
    .selectFrom('instructors')
    .select(['id', 'slug', 'name', 'title', 'bio', 'image_url', 'links', 'user_id'])
    .where('slug', '=', slug)
    .executeTakeFirst()
}

/** The instructor's published courses as cards (newest first), with their learners. */
export function publishedCoursesOf(db: DB, instructorId: string, limit = 200) {
  return db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select([...courseCardColumns, 'courses.students_count'])
    .where('courses.instructor_id', '=', instructorId)
    .where('courses.status', '=', 'published')
    .orderBy('courses.published_at', 'desc')
    .orderBy('courses.id')
    .limit(limit)
    .execute()
}

/** Every profile's slug, for the sitemap (profiles with at least one published course, or a creator's). */
export function listInstructorSlugs(db: DB) {
  return db.selectFrom('instructors').select(['slug', 'created_at']).orderBy('slug').execute()
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
