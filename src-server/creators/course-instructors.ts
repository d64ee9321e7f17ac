// Co-instructors (decision 0038): the people who accepted a course owner's invitation (course_instructors rows with
// role 'co'), their shares of the course's earnings, and the owner's team across courses and school. The
// invitations themselves are creators/invites.ts's (scope 'course').
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { ownedCourses } from './course-team.ts'
import { openInviteEmails } from './invites.ts'

export async function addCoInstructor(db: DB, courseId: string, userId: string): Promise<void> {
  await db
    .insertInto('course_instructors')
    .values({ course_id: courseId, user_id: userId, role: 'co' })
    .onConflict((oc) => oc.columns(['course_id', 'user_id']).doNothing())
    .execute()
}

/** Removes a co-instructor; their percentage of the course's earnings goes back to the owner (future sales). */
export async function removeCoInstructor(db: DB, courseId: string, userId: string): Promise<boolean> {
  const row = await db
    .deleteFrom('course_instructors')
    .where('course_id', '=', courseId)
    .where('user_id', '=', userId)
    .where('role', '=', 'co')
    .returning('share_basis_points')
    .executeTakeFirst()
  if (!row) return false
  if (row.share_basis_points > 0) {
    await db
      .updateTable('course_instructors')
      .set((eb) => ({ share_basis_points: eb('share_basis_points', '+', row.share_basis_points) }))
      .where('course_id', '=', courseId)
      .where('role', '=', 'owner')
      .execute()
  }
  return true
}

/** Each instructor's percentage of a course's earnings (basis points; a course's rows sum to 10,000). */
export async function courseShares(
  db: DB,
  courseIds: readonly string[],
): Promise<Map<string, { userId: string; role: 'owner' | 'co'; basisPoints: number }[]>> {
  const shares = new Map<string, { userId: string; role: 'owner' | 'co'; basisPoints: number }[]>()
  if (courseIds.length === 0) return shares
  const rows = await db
    .selectFrom('course_instructors')
    .select(['course_id', 'user_id', 'role', 'share_basis_points'])
    .where('course_id', 'in', courseIds)
    .orderBy('course_id')
    .orderBy('role', 'desc') // 'owner' first
    .orderBy('created_at')
    .execute()
  for (const row of rows) {
    const list = shares.get(row.course_id) ?? []
    list.push({ userId: row.user_id, role: row.role, basisPoints: row.share_basis_points })
    shares.set(row.course_id, list)
  }
  return shares
}

/**
 * Sets every instructor's percentage at once (the owner's page sends the whole table): the course's rows are
 * locked, the list must name exactly the course's instructors, and the parts must sum to 10,000 basis points.
 */
export async function setCourseShares(
  db: DB,
  courseId: string,
  shares: readonly { userId: string; basisPoints: number }[],
): Promise<'saved' | 'team_changed' | 'not_whole'> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('course_instructors')
      .select('user_id')
      .where('course_id', '=', courseId)
      .forUpdate()
      .execute()
    const team = new Set(rows.map((row) => row.user_id))
    const named = new Set(shares.map((share) => share.userId))
    if (team.size !== named.size || shares.length !== named.size || [...named].some((id) => !team.has(id))) {
      return 'team_changed'
    }
    if (shares.reduce((sum, share) => sum + share.basisPoints, 0) !== 10_000) return 'not_whole'
    for (const share of shares) {
      await trx
        .updateTable('course_instructors')
        .set({ share_basis_points: share.basisPoints })
        .where('course_id', '=', courseId)
        .where('user_id', '=', share.userId)
        .execute()
    }
    return 'saved'
  })
}

export function coInstructors(db: DB, courseId: string) {
  return db
    .selectFrom('course_instructors as ci')
    .innerJoin('users as u', 'u.id', 'ci.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'ci.created_at'])
    .where('ci.course_id', '=', courseId)
    .where('ci.role', '=', 'co')
    .orderBy('ci.created_at')
    .execute()
}

/**
 * The owner's team: the distinct people (lower-case e-mail addresses) who co-instruct any of the owner's courses,
 * belong to the owner's school, or hold an open invitation to either. A plan's teamMembers limit counts these.
 */
export async function ownerTeam(
  db: DB,
  ownerId: string,
  now = clock.now(),
  options: { invites: boolean } = { invites: true },
): Promise<Set<string>> {
  const owned = ownedCourses(db, ownerId)
  const members = db
    .selectFrom('course_instructors as ci')
    .innerJoin('users as u', 'u.id', 'ci.user_id')
    .select(sql<string>`lower(u.email)`.as('email'))
    .where('ci.role', '=', 'co')
    .where('ci.course_id', 'in', owned)
  // School members (decision 0057) share the plan's team size with the co-instructors.
  const school = db.selectFrom('schools').select('id').where('owner_id', '=', ownerId)
  const schoolMembers = db
    .selectFrom('school_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(sql<string>`lower(u.email)`.as('email'))
    .where('m.school_id', 'in', school)
  const rows = options.invites
    ? await members
        .union(schoolMembers)
        .union(openInviteEmails(db, 'course', owned, now))
        .union(openInviteEmails(db, 'school', school, now))
        .execute()
    : await members.union(schoolMembers).execute()
  return new Set(rows.map((row) => row.email))
}

/** Whether the user co-instructs any course (a co-instructor need not be a creator: decision 0038). */
export async function coInstructsAny(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('course_instructors')
    .select('course_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'co')
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}
