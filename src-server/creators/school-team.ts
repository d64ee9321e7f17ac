// A school's team (decision 0057): members with one role each and the owner's e-mailed invitations (a random token
// stored only as its SHA-256 hash, valid 7 days, single use; the token machinery is the co-instructors').
import { sql } from 'kysely'
import type { SchoolMemberRole } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { normaliseEmail } from '../users/email.ts'
import { hashInviteToken } from './course-invites.ts'

export const SCHOOL_INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000

export function schoolMembers(db: DB, schoolId: string) {
  return db
    .selectFrom('school_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'm.role', 'm.created_at'])
    .where('m.school_id', '=', schoolId)
    .orderBy('m.created_at')
    .execute()
}

export function openSchoolInvites(db: DB, schoolId: string, now = clock.now()) {
  return db
    .selectFrom('school_invites')
    .select(['id', 'email', 'role', 'expires_at', 'created_at'])
    .where('school_id', '=', schoolId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute()
}

/** The distinct lower-case addresses of the members and, unless told otherwise, of the open invitations. */
export async function schoolSeats(
  db: DB,
  schoolId: string,
  now = clock.now(),
  options: { invites: boolean } = { invites: true },
): Promise<Set<string>> {
  const members = db
    .selectFrom('school_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(sql<string>`lower(u.email)`.as('email'))
    .where('m.school_id', '=', schoolId)
  const rows = options.invites
    ? await members
        .union(
          db
            .selectFrom('school_invites')
            .select(sql<string>`lower(email)`.as('email'))
            .where('school_id', '=', schoolId)
            .where('accepted_at', 'is', null)
            .where('expires_at', '>', now),
        )
        .execute()
    : await members.execute()
  return new Set(rows.map((row) => row.email))
}

/** Records an invitation (replacing an open one to the same address); returns its id. */
export async function createSchoolInvite(
  db: DB,
  values: {
    schoolId: string
    email: string
    role: SchoolMemberRole
    invitedBy: string
    tokenHash: Uint8Array
    expiresAt: Date
  },
): Promise<string> {
  const email = normaliseEmail(values.email)
  await db
    .deleteFrom('school_invites')
    .where('school_id', '=', values.schoolId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .where('accepted_at', 'is', null)
    .execute()
  const row = await db
    .insertInto('school_invites')
    .values({
      school_id: values.schoolId,
      email,
      role: values.role,
      token_hash: values.tokenHash,
      invited_by: values.invitedBy,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function cancelSchoolInvite(db: DB, schoolId: string, inviteId: string): Promise<boolean> {
  const row = await db
    .deleteFrom('school_invites')
    .where('id', '=', inviteId)
    .where('school_id', '=', schoolId)
    .where('accepted_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return Boolean(row)
}

/** The usable invitation with this token (not accepted, not expired), or undefined. */
export function findUsableSchoolInvite(db: DB, token: string, now = clock.now()) {
  return db
    .selectFrom('school_invites')
    .select(['id', 'school_id', 'email', 'role', 'invited_by', 'expires_at'])
    .where('token_hash', '=', hashInviteToken(token))
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
}

/** Single use: of two concurrent accepts one claims the invitation (row lock on update) and the other gets undefined. */
export function claimSchoolInvite(db: DB, inviteId: string, userId: string, now = clock.now()) {
  return db
    .updateTable('school_invites')
    .set({ accepted_at: now, accepted_by: userId })
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', 'school_id', 'role'])
    .executeTakeFirst()
}

/** Adds the member, or gives an existing member the invitation's role. */
export async function putSchoolMember(
  db: DB,
  values: { schoolId: string; userId: string; role: SchoolMemberRole; addedBy: string | null },
): Promise<void> {
  await db
    .insertInto('school_members')
    .values({ school_id: values.schoolId, user_id: values.userId, role: values.role, added_by: values.addedBy })
    .onConflict((oc) => oc.columns(['school_id', 'user_id']).doUpdateSet({ role: values.role }))
    .execute()
}

export async function setSchoolMemberRole(
  db: DB,
  schoolId: string,
  userId: string,
  role: SchoolMemberRole,
): Promise<boolean> {
  const row = await db
    .updateTable('school_members')
    .set({ role })
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst()
  return Boolean(row)
}

export async function removeSchoolMember(db: DB, schoolId: string, userId: string): Promise<boolean> {
  const row = await db
    .deleteFrom('school_members')
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst()
  return Boolean(row)
}

/** The schools the user belongs to as a member (not as owner), with the role in each. */
export function membershipsOf(db: DB, userId: string) {
  return db
    .selectFrom('school_members as m')
    .innerJoin('schools as s', 's.id', 'm.school_id')
    .select(['s.id', 's.name', 's.slug', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('s.name')
    .execute()
}

/** Whether the user belongs to any school's team (the studio's course procedures then ask their role per course). */
export async function belongsToAnySchool(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('school_members')
    .select('school_id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}
