// Who may do what in a school (decision 0057) — the one place studio procedures ask. The owner may do everything;
// a member only what their role's row in SCHOOL_PERMISSIONS lists. A course's school is its owner's; the course's
// co-instructors (course_instructors 'co', decision 0038) keep editing and answering on that one course.
// Refusals: a course or school the user has no part in is not found (its existence is not revealed); a member
// whose role does not allow the action is forbidden, naming the role.
import type { SchoolMemberRole } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export type SchoolRole = 'owner' | SchoolMemberRole

export type SchoolAction =
  | 'school.manage' // name, address, team, invitations
  | 'course.edit' // the studio's course and curriculum editing, submitting for review
  | 'course.view' // reading a course in the studio
  | 'earnings.view' // earnings, statements, payouts (read)
  | 'questions.answer' // learners' questions and messages

export const SCHOOL_PERMISSIONS: Record<SchoolMemberRole, readonly SchoolAction[]> = {
  instructor: ['course.edit', 'course.view', 'questions.answer'],
  finance: ['earnings.view'],
  support: ['questions.answer', 'course.view'],
}

export function roleAllows(role: SchoolRole, action: SchoolAction): boolean {
  return role === 'owner' || SCHOOL_PERMISSIONS[role].includes(action)
}

/** The user's role in the school, or null when they have none. */
export async function schoolRoleOf(db: DB, userId: string, schoolId: string): Promise<SchoolRole | null> {
  const school = await db.selectFrom('schools').select('owner_id').where('id', '=', schoolId).executeTakeFirst()
  if (!school) return null
  if (school.owner_id === userId) return 'owner'
  const member = await db
    .selectFrom('school_members')
    .select('role')
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return member?.role ?? null
}

function refuse(role: string | null, action: SchoolAction, what: string): never {
  if (role === null) throw new DomainError('not_found', `${what} not found`)
  throw new DomainError('forbidden', `Your role in this school (${role}) does not allow that`, {
    cause: { action },
  })
}

/** The school's owner id when the user may do the action in it; otherwise not found / forbidden. */
export async function assertSchoolAction(
  db: DB,
  userId: string,
  schoolId: string,
  action: SchoolAction,
): Promise<{ role: SchoolRole; ownerId: string }> {
  const school = await db.selectFrom('schools').select('owner_id').where('id', '=', schoolId).executeTakeFirst()
  const role = school ? await schoolRoleOf(db, userId, schoolId) : null
  if (!school || !role || !roleAllows(role, action)) refuse(role, action, 'School')
  return { role, ownerId: school.owner_id }
}

/** The user's row on the course's own team (course_instructors), if any: a school's members are not rows here. */
export async function courseInstructorRole(
  db: DB,
  userId: string,
  courseId: string,
): Promise<'owner' | 'co' | undefined> {
  const row = await db
    .selectFrom('course_instructors')
    .select('role')
    .where('course_id', '=', courseId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.role
}

/**
 * The user's standing on a course: 'owner' and 'co' from course_instructors, else their school role through the
 * course owner's school; null when none.
 */
export async function courseStandingOf(
  db: DB,
  userId: string,
  courseId: string,
): Promise<{ kind: 'course'; role: 'owner' | 'co' } | { kind: 'school'; role: SchoolMemberRole } | null> {
  const direct = await courseInstructorRole(db, userId, courseId)
  if (direct) return { kind: 'course', role: direct }
  const member = await db
    .selectFrom('course_instructors as ci')
    .innerJoin('schools as s', 's.owner_id', 'ci.user_id')
    .innerJoin('school_members as m', 'm.school_id', 's.id')
    .select('m.role')
    .where('ci.course_id', '=', courseId)
    .where('ci.role', '=', 'owner')
    .where('m.user_id', '=', userId)
    .executeTakeFirst()
  return member ? { kind: 'school', role: member.role } : null
}

const CO_INSTRUCTOR_ACTIONS: readonly SchoolAction[] = ['course.edit', 'course.view', 'questions.answer']

/** Whether the user may do the action on the course (no throw). */
export async function canOnCourse(db: DB, userId: string, courseId: string, action: SchoolAction): Promise<boolean> {
  const standing = await courseStandingOf(db, userId, courseId)
  if (!standing) return false
  if (standing.kind === 'course') return standing.role === 'owner' || CO_INSTRUCTOR_ACTIONS.includes(action)
  return roleAllows(standing.role, action)
}

/** Refuses unless the user may do the action on the course: no part in it → not found; a role short of it → forbidden. */
export async function assertCourseAction(
  db: DB,
  userId: string,
  courseId: string,
  action: SchoolAction,
): Promise<{ kind: 'course'; role: 'owner' | 'co' } | { kind: 'school'; role: SchoolMemberRole }> {
  const standing = await courseStandingOf(db, userId, courseId)
  if (!standing) throw new DomainError('not_found', 'Course not found')
  const allowed =
    standing.kind === 'course'
      ? standing.role === 'owner' || CO_INSTRUCTOR_ACTIONS.includes(action)
      : roleAllows(standing.role, action)
  if (!allowed) refuse(standing.role === 'co' ? 'co-instructor' : standing.role, action, 'Course')
  return standing
}
