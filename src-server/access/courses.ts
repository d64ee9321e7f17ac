// Who may open a course. Today a course opens for the buyers enrolled in it and for staff (who preview what they
// sell); nothing else in src-server reads enrolments. The access ledger will answer the same questions later.
import { isStaff, type Role } from '../../src-shared/roles.ts'
import type { DB } from '../db.ts'

export async function canOpenCourse(
  db: DB,
  user: { id: string; role: Role } | null,
  courseId: string,
): Promise<boolean> {
  if (!user) return false
  if (isStaff(user.role)) return true
  return ownsCourse(db, user.id, courseId)
}

/** Already bought: the cart refuses to add such a course again. */
export async function ownsCourse(db: DB, userId: string, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom('enrolments')
    .select('course_id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  return Boolean(row)
}

export async function ownedCourseIds(db: DB, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('enrolments').select('course_id').where('user_id', '=', userId).execute()
  return rows.map((row) => row.course_id)
}

/** My Courses: the courses the user is enrolled in, newest first. */
export async function listOwnedCourses(db: DB, userId: string) {
  const rows = await db
    .selectFrom('enrolments as e')
    .innerJoin('courses as c', 'c.id', 'e.course_id')
    .select(['c.id', 'c.title', 'c.instructor_name', 'c.image_url', 'e.enrolled_at'])
    .where('e.user_id', '=', userId)
    .orderBy('e.enrolled_at', 'desc')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    instructor: row.instructor_name,
    image: row.image_url,
    enrolledAt: row.enrolled_at.toISOString(),
  }))
}

/** Whether anyone holds the course (staff then archive it rather than delete it). */
export async function courseHasLearners(db: DB, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom('enrolments')
    .select('user_id')
    .where('course_id', '=', courseId)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}
