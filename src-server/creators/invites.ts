// Invitations, one machinery for every scope: a course's co-instructors (course_instructor_invites, decision 0038), a
// school's team (school_invites, decision 0057) and a school's learners-to-be (course_enrolment_invites, decision
// 0128: the REST API's enrolment of someone the school has no enrolment of). An invitation is a random token e-mailed
// once and stored only as its SHA-256 hash, valid 7 days, single use; a new invitation to the same address for the same
// course or school replaces the open one. creators/ owns the tables; the flows add the people, the enrolment and the mail.
import { sha256 } from '@oslojs/crypto/sha2'
import { type AliasedRawBuilder, type SelectQueryBuilder, sql } from 'kysely'
import type { Database, SchoolMemberRole } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { randomToken } from '../kernel/random-token.ts'
import { normaliseEmail } from '../users/email.ts'

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000

/** Each scope's table and the column naming the course or school the invitation is to. */
const SCOPES = {
  course: { table: 'course_instructor_invites', column: 'course_id' },
  school: { table: 'school_invites', column: 'school_id' },
  enrolment: { table: 'course_enrolment_invites', column: 'course_id' },
} as const
export type InviteScope = keyof typeof SCOPES

/** What an invitation is to: a course (co-instructors, or taking it) or a school (its team). */
export interface InviteTarget<S extends InviteScope = InviteScope> {
  scope: S
  id: string
}
/** Only a school invitation carries a role (the member's); a course invitation's is null. */
export type InviteRole<S extends InviteScope> = S extends 'school' ? SchoolMemberRole : null

export const hashInviteToken = (token: string) => sha256(new TextEncoder().encode(token))

export function newInviteToken(): string {
  return randomToken(32)
}

const scopeId = (scope: InviteScope) => sql<string>`${sql.ref(SCOPES[scope].column)}`.as('scope_id')
const roleOf = <S extends InviteScope>(scope: S) =>
  (scope === 'school' ? sql`role` : sql`null`).as('role') as AliasedRawBuilder<InviteRole<S>, 'role'>
const inScope = (target: InviteTarget) => sql<boolean>`${sql.ref(SCOPES[target.scope].column)} = ${target.id}`

/**
 * Records an invitation (replacing an open one to the same address for the same course or school) and returns the
 * token to mail: it is stored only as its hash and returned nowhere else.
 */
export async function createInvite(
  db: DB,
  target: InviteTarget,
  values: { email: string; invitedBy: string; role?: SchoolMemberRole },
  now = clock.now(),
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const { table } = SCOPES[target.scope]
  const email = normaliseEmail(values.email)
  const token = newInviteToken()
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS)
  await db
    .deleteFrom(table)
    .where(inScope(target))
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .where('accepted_at', 'is', null)
    .execute()
  if (target.scope === 'school' && !values.role) throw new Error('A school invitation names the member’s role')
  const common = { email, token_hash: hashInviteToken(token), invited_by: values.invitedBy, expires_at: expiresAt }
  const row =
    target.scope === 'school'
      ? await db
          .insertInto('school_invites')
          .values({ ...common, school_id: target.id, role: values.role as SchoolMemberRole })
          .returning('id')
          .executeTakeFirstOrThrow()
      : await db
          .insertInto(target.scope === 'course' ? 'course_instructor_invites' : 'course_enrolment_invites')
          .values({ ...common, course_id: target.id })
          .returning('id')
          .executeTakeFirstOrThrow()
  return { id: row.id, token, expiresAt }
}

/** Open invitations (not accepted, not expired), newest first; `to`: only the one to this (normalised) address. */
export function openInvites<S extends InviteScope>(db: DB, target: InviteTarget<S>, now = clock.now(), to?: string) {
  let query = db
    .selectFrom(SCOPES[target.scope].table)
    .select(['id', 'email', roleOf(target.scope), 'expires_at', 'created_at'])
    .where(inScope(target))
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
  // lower(email), as the open-invitation index reads it, so the lookup is one index entry.
  if (to !== undefined) query = query.where((eb) => eb(eb.fn('lower', ['email']), '=', to))
  return query.orderBy('created_at', 'desc').execute()
}

/**
 * Every invitation not accepted, the expired ones too (the school's team page shows those as Expired, to resend or
 * remove, rather than letting them vanish), newest first.
 */
export function unacceptedInvites<S extends InviteScope>(db: DB, target: InviteTarget<S>) {
  return db
    .selectFrom(SCOPES[target.scope].table)
    .select(['id', 'email', roleOf(target.scope), 'expires_at', 'created_at'])
    .where(inScope(target))
    .where('accepted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute()
}

/** One invitation of this course or school not accepted (open or expired), or undefined. */
export function unacceptedInvite<S extends InviteScope>(db: DB, target: InviteTarget<S>, inviteId: string) {
  return db
    .selectFrom(SCOPES[target.scope].table)
    .select(['id', 'email', roleOf(target.scope), 'expires_at'])
    .where('id', '=', inviteId)
    .where(inScope(target))
    .where('accepted_at', 'is', null)
    .executeTakeFirst()
}

/** The lower-case addresses of the open invitations to the courses or schools the query lists (team counts). */
export function openInviteEmails(
  db: DB,
  scope: InviteScope,
  ids: SelectQueryBuilder<Database, keyof Database, { id: string } | { course_id: string }>,
  now = clock.now(),
) {
  return db
    .selectFrom(SCOPES[scope].table)
    .select(sql<string>`lower(email)`.as('email'))
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .where(sql.ref(SCOPES[scope].column), 'in', ids)
}

export async function cancelInvite(db: DB, target: InviteTarget, inviteId: string): Promise<boolean> {
  const row = await db
    .deleteFrom(SCOPES[target.scope].table)
    .where('id', '=', inviteId)
    .where(inScope(target))
    .where('accepted_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  return Boolean(row)
}

/** The usable invitation with this token (not accepted, not expired), or undefined. */
export function findUsableInvite<S extends InviteScope>(db: DB, scope: S, token: string, now = clock.now()) {
  return db
    .selectFrom(SCOPES[scope].table)
    .select(['id', scopeId(scope), 'email', roleOf(scope), 'invited_by', 'expires_at'])
    .where('token_hash', '=', hashInviteToken(token))
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
}

/** Single use: of two concurrent accepts one claims the invitation (row lock on update) and the other gets undefined. */
export function claimInvite<S extends InviteScope>(
  db: DB,
  scope: S,
  inviteId: string,
  userId: string,
  now = clock.now(),
) {
  return db
    .updateTable(SCOPES[scope].table)
    .set({ accepted_at: now, accepted_by: userId })
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id', scopeId(scope), roleOf(scope)])
    .executeTakeFirst()
}

/** Open invitations to take the owner's courses, with the course's title (decision 0128). */
function openEnrolmentInvites(db: DB, ownerId: string, now: Date) {
  return db
    .selectFrom('course_enrolment_invites as i')
    .innerJoin('courses as c', 'c.id', 'i.course_id')
    .select(['i.id', 'i.email', 'i.course_id', 'c.title as course_title', 'i.expires_at', 'i.created_at'])
    .where('c.owner_id', '=', ownerId)
    .where('i.accepted_at', 'is', null)
    .where('i.expires_at', '>', now)
}

/** The school's REST API: its open enrolment invitations by id after `after`. */
export function openEnrolmentInvitesAfter(
  db: DB,
  ownerId: string,
  after: string | null,
  limit: number,
  now = clock.now(),
) {
  let query = openEnrolmentInvites(db, ownerId, now)
  if (after !== null) query = query.where('i.id', '>', after)
  return query.orderBy('i.id').limit(limit).execute()
}

/** The studio: the owner's newest open enrolment invitations first, at most `limit`. */
export function newestEnrolmentInvites(db: DB, ownerId: string, limit: number, now = clock.now()) {
  return openEnrolmentInvites(db, ownerId, now).orderBy('i.created_at', 'desc').orderBy('i.id').limit(limit).execute()
}

/** Withdraws an open invitation to one of the owner's courses; undefined when there is none (another school's). */
export function withdrawEnrolmentInvite(db: DB, ownerId: string, inviteId: string) {
  return db
    .deleteFrom('course_enrolment_invites')
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('course_id', 'in', (eb) => eb.selectFrom('courses').select('id').where('owner_id', '=', ownerId))
    .returning(['id', 'email', 'course_id', 'expires_at'])
    .executeTakeFirst()
}
