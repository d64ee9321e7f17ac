// Who may edit a course: its owner and its co-instructors (course_instructors). Every studio procedure and route
// asks here before it reads or writes a course; a course the user may not edit is answered as not found, so a
// creator cannot even learn that another creator's course id exists.
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export type CourseRole = 'owner' | 'co'

export async function courseRoleOf(db: DB, userId: string, courseId: string): Promise<CourseRole | null> {
  const row = await db
    .selectFrom('course_instructors')
    .select('role')
    .where('course_id', '=', courseId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.role ?? null
}

/** The user's role on the course, or a not-found refusal; `owner` also refuses co-instructors (price, unpublish). */
export async function assertCourseRole(
  db: DB,
  userId: string,
  courseId: string,
  need: 'editor' | 'owner' = 'editor',
): Promise<CourseRole> {
  const role = await courseRoleOf(db, userId, courseId)
  if (!role) throw new DomainError('not_found', 'Course not found')
  if (need === 'owner' && role !== 'owner') {
    throw new DomainError('forbidden', 'Only the course owner can do that')
  }
  return role
}

/** Records the creator who made a course as its owner (in the caller's transaction, with the course row). */
export async function addCourseOwner(db: DB, courseId: string, userId: string): Promise<void> {
  await db
    .insertInto('course_instructors')
    .values({ course_id: courseId, user_id: userId, role: 'owner', share_basis_points: 10_000 })
    .execute()
}

/** How many courses the user owns (the studio's "which plan fits" for a creator without a plan). */
export async function countOwnedCourses(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('course_instructors')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
