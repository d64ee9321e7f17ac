// Who may open a course: its holders in the access ledger (a bought, free or staff-granted course that is in force)
// and staff (who preview what they sell). Lessons add Premium on top of this (see isPremium).

import { isStaff, type Role } from '../../src-shared/roles.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { isLive } from './ledger.ts'

export async function canOpenCourse(
  db: DB,
  user: { id: string; role: Role } | null,
  courseId: string,
): Promise<boolean> {
  if (!user) return false
  if (isStaff(user.role)) return true
  return ownsCourse(db, user.id, courseId)
}

/** Holds the course now: the cart refuses to add such a course again (after a refund it may be bought again). */
export async function ownsCourse(db: DB, userId: string, courseId: string, now = clock.now()): Promise<boolean> {
  const row = await db
    .selectFrom('access_grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'course')
    .where('course_id', '=', courseId)
    .where(isLive(now))
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}

export async function ownedCourseIds(db: DB, userId: string, now = clock.now()): Promise<string[]> {
  const rows = await db
    .selectFrom('access_grants')
    .select('course_id')
    .distinct()
    .where('user_id', '=', userId)
    .where('kind', '=', 'course')
    .where(isLive(now))
    .execute()
  return rows.flatMap((row) => (row.course_id ? [row.course_id] : []))
}

/** My Courses: the courses the user holds now, newest first (a course held twice shows once, from its first grant). */
export async function listOwnedCourses(db: DB, userId: string, now = clock.now()) {
  const rows = await db
    .selectFrom('access_grants')
    .innerJoin('courses as c', 'c.id', 'access_grants.course_id')
    .select(['c.id', 'c.title', 'c.instructor_name', 'c.image_url'])
    .select((eb) => eb.fn.min('access_grants.starts_at').as('enrolled_at'))
    .where('access_grants.user_id', '=', userId)
    .where('access_grants.kind', '=', 'course')
    .where(isLive(now))
    .groupBy(['c.id', 'c.title', 'c.instructor_name', 'c.image_url'])
    .orderBy('enrolled_at', 'desc')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    instructor: row.instructor_name,
    image: row.image_url,
    enrolledAt: new Date(row.enrolled_at).toISOString(),
  }))
}

/** Whether anyone was ever granted the course, even if revoked since (staff then archive it rather than delete it). */
export async function courseHasLearners(db: DB, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom('access_grants')
    .select('id')
    .where('course_id', '=', courseId)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}

/**
 * When the user's access to the course began (drip schedules count from it): the earliest start among their grants in
 * force of that kind — the course's own grants for a holder, the Premium grant for a member. Undefined: no such grant.
 */
export async function accessBeganAt(
  db: DB,
  userId: string,
  courseId: string,
  through: 'course' | 'premium',
  now = clock.now(),
): Promise<Date | undefined> {
  let query = db
    .selectFrom('access_grants')
    .select((eb) => eb.fn.min('starts_at').as('began'))
    .where('user_id', '=', userId)
    .where('kind', '=', through)
    .where(isLive(now))
  if (through === 'course') query = query.where('course_id', '=', courseId)
  const row = await query.executeTakeFirst()
  return row?.began ? new Date(row.began) : undefined
}

/**
 * The Premium grants the user held at `at` (when they completed a course through Premium), with why each was revoked
 * since, if it was, and the subscription or order line that gave it.
 */
export function premiumGrantsAt(db: DB, userId: string, at: Date) {
  return db
    .selectFrom('access_grants')
    .select(['revoked_reason', 'subscription_id', 'order_item_id'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'premium')
    .where('starts_at', '<=', at)
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', at)]))
    .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', at)]))
    .execute()
}

/**
 * Whether the user ever held Premium, and the course (when one is named), live or not: what a right they lost came
 * from (a live session's seat freed when Premium ended says so).
 */
export async function everHeld(db: DB, userId: string, courseId: string | null) {
  const rows = await db
    .selectFrom('access_grants')
    .select('kind')
    .distinct()
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('kind', '=', 'premium'),
        ...(courseId ? [eb.and([eb('kind', '=', 'course'), eb('course_id', '=', courseId)])] : []),
      ]),
    )
    .execute()
  const kinds = new Set(rows.map((row) => row.kind))
  return { premium: kinds.has('premium'), course: kinds.has('course') }
}
