// Who may edit a course: its owner, its co-instructors (course_instructors) and its school's instructor members
// (creators/school-access.ts decides every school role). Every studio procedure and route
// asks here before it reads or writes a course; a course the user may not edit is answered as not found, so a
// creator cannot even learn that another creator's course id exists.
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { assertCourseAction, courseStandingOf, roleAllows } from './school-access.ts'

export type CourseRole = 'owner' | 'co'

/**
 * The user's editing role on the course: 'owner' or 'co' from course_instructors, and 'co' for an instructor member
 * of the course's school (decision 0057: they edit the school's courses, never its price, sale or team). The
 * school roles are decided in creators/school-access.ts.
 */
export async function courseRoleOf(db: DB, userId: string, courseId: string): Promise<CourseRole | null> {
  const standing = await courseStandingOf(db, userId, courseId)
  if (!standing) return null
  if (standing.kind === 'course') return standing.role
  return roleAllows(standing.role, 'course.edit') ? 'co' : null
}

/**
 * The user's role on the course, or a refusal: no part in it → not found; a school member whose role may not edit
 * (finance, support) → forbidden; `owner` also refuses co-instructors and instructor members (price, unpublish).
 */
export async function assertCourseRole(
  db: DB,
  userId: string,
  courseId: string,
  need: 'editor' | 'owner' = 'editor',
): Promise<CourseRole> {
  const standing = await assertCourseAction(db, userId, courseId, 'course.edit')
  const role: CourseRole = standing.kind === 'course' ? standing.role : 'co'
  if (need === 'owner' && role !== 'owner') {
    throw new DomainError('forbidden', 'Only the course owner can do that')
  }
  return role
}

/** The course's owner (its course_instructors row with role 'owner'), if it has one. */
export async function courseOwnerId(db: DB, courseId: string): Promise<string | undefined> {
  const owner = await db
    .selectFrom('course_instructors')
    .select('user_id')
    .where('course_id', '=', courseId)
    .where('role', '=', 'owner')
    .executeTakeFirst()
  return owner?.user_id
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

/** The ids of the courses the user owns, as a subquery (a school's courses are its owner's). */
export function ownedCourses(db: DB, ownerId: string) {
  return coursesTaughtAs(db, ownerId, 'owner')
}

/** The ids of the courses the user teaches in this role, as a subquery. */
export function coursesTaughtAs(db: DB, userId: string, role: 'owner' | 'co') {
  return db.selectFrom('course_instructors').select('course_id').where('user_id', '=', userId).where('role', '=', role)
}

/** The courses a user teaches (owner or co-instructor). */
export async function taughtCourseIds(db: DB, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('course_instructors').select('course_id').where('user_id', '=', userId).execute()
  return rows.map((row) => row.course_id)
}

/**
 * The ids of the courses someone with a live account teaches. An erased creator's row stays (their anonymised
 * profile, their earnings' history), but nobody is behind it: their course is the house's from then on.
 */
export function coursesWithLiveTeacher(db: DB) {
  return db
    .selectFrom('course_instructors as ci')
    .leftJoin('account_deletions as erasure', 'erasure.user_id', 'ci.user_id')
    .where('erasure.erased_at', 'is', null)
    .select('ci.course_id')
}

/** A house course: nobody teaches it (the seed's catalogue, an erased creator's); the marketplace's staff run it. */
export async function isHouseCourse(db: DB, courseId: string): Promise<boolean> {
  const anyone = await coursesWithLiveTeacher(db).where('ci.course_id', '=', courseId).limit(1).executeTakeFirst()
  return anyone === undefined
}
