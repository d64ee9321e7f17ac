// Team invitations: a random single-use token, e-mailed through the outbox, stored only as its SHA-256 hash,
// valid for INVITATION_TTL_MS. Accepting sets a password and grants the invited role in one transaction.

import { sha256 } from '@oslojs/crypto/sha2'
import { fullName } from '../../src-shared/names.ts'
import * as audit from '../audit/repository.ts'
import { hashPassword } from '../auth/password.ts'
import { invalidateUserSessions } from '../auth/session.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { randomToken } from '../kernel/random-token.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { userEmailIs } from '../users/email.ts'

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000
export const INVITATION_MAIL_KIND = 'team-invitation'
export const INVITATION_INVALID = 'This invitation link is invalid or has expired. Ask an admin to send a new one.'

const hashToken = (token: string) => sha256(new TextEncoder().encode(token))

function splitName(name: string) {
  const [first = '', ...rest] = name.trim().split(/\s+/)
  return { first, last: rest.join(' ') }
}

export async function inviteMember(
  db: DB,
  actor: audit.Actor,
  publicUrl: string,
  input: { name: string; email: string; role: 'admin' | 'editor' | 'viewer' },
  now = clock.now(),
) {
  const existing = await db.selectFrom('users').select('role').where(userEmailIs(input.email)).executeTakeFirst()
  if (existing && existing.role !== 'customer') {
    throw new DomainError('conflict', 'This person is already a team member', { field: 'email' })
  }
  const token = randomToken(32)
  const link = `${publicUrl.replace(/\/$/, '')}/admin/accept-invite?token=${token}`
  const { first, last } = splitName(input.name)
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS)

  await db.transaction().execute(async (trx) => {
    // A new invitation replaces any pending one for the same address.
    await trx
      .deleteFrom('team_invitations')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email.toLowerCase()))
      .where('accepted_at', 'is', null)
      .execute()
    const row = await trx
      .insertInto('team_invitations')
      .values({
        email: input.email,
        first_name: first,
        last_name: last,
        role: input.role,
        token_hash: hashToken(token),
        invited_by: actor.id,
        expires_at: expiresAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await enqueueMail(trx, {
      kind: INVITATION_MAIL_KIND,
      to: input.email,
      subject: 'You have been invited to the SkillForge admin team',
      text: [
        // The invitee's address is not proven yet: no typed name in the mail, only the inviting admin's address.
        'Hello,',
        '',
        `${actor.email} invited you to join the SkillForge admin team as ${input.role}.`,
        `Set your password and join here (the link works once and expires in 7 days):`,
        link,
      ].join('\n'),
    })
    await audit.record(trx, actor, 'team.invite', {
      type: 'invitation',
      id: row.id,
      after: { email: input.email, role: input.role },
    })
  })
  // The link goes back to the inviting admin too: without a mail transport it is the only way to hand it over.
  return { email: input.email, role: input.role, expiresAt: expiresAt.toISOString(), link }
}

async function findUsableInvitation(db: DB, token: string, now: Date) {
  const row = await db
    .selectFrom('team_invitations')
    .select(['id', 'email', 'first_name', 'last_name', 'role', 'invited_by', 'expires_at', 'accepted_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst()
  if (!row || row.accepted_at || row.expires_at.getTime() <= now.getTime()) return null
  return row
}

/** What the acceptance page shows before the invitee chooses a password. */
export async function describeInvitation(db: DB, token: string, now = clock.now()) {
  const row = await findUsableInvitation(db, token, now)
  if (!row) throw new DomainError('not_found', INVITATION_INVALID)
  return { email: row.email, role: row.role, name: fullName(row.first_name, row.last_name) }
}

/** Accepts once: creates (or promotes) the account with the chosen password. Returns the user id. */
export async function acceptInvitation(db: DB, token: string, password: string, now = clock.now()) {
  const passwordHash = await hashPassword(password)
  return db.transaction().execute(async (trx) => {
    // The conditional update is the single-use guard: of two concurrent accepts, one updates nothing.
    const claimed = await trx
      .updateTable('team_invitations')
      .set({ accepted_at: now })
      .where('token_hash', '=', hashToken(token))
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['id', 'email', 'first_name', 'last_name', 'role'])
      .executeTakeFirst()
    if (!claimed) throw new DomainError('not_found', INVITATION_INVALID)

    const existing = await trx
      .selectFrom('users')
      .select(['id', 'email', 'role'])
      .where(userEmailIs(claimed.email))
      .executeTakeFirst()
    let userId: string
    if (existing) {
      if (existing.role === 'super_admin') throw new DomainError('forbidden', INVITATION_INVALID)
      await trx
        .updateTable('users')
        .set({ role: claimed.role, password_hash: passwordHash, email_verified: true, updated_at: now })
        .where('id', '=', existing.id)
        .execute()
      // A new password: sessions made with the old one end.
      await invalidateUserSessions(trx, existing.id)
      userId = existing.id
    } else {
      const row = await trx
        .insertInto('users')
        .values({
          email: claimed.email,
          email_verified: true,
          password_hash: passwordHash,
          first_name: claimed.first_name,
          last_name: claimed.last_name,
          role: claimed.role,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      userId = row.id
    }
    await audit.record(trx, { id: userId, email: claimed.email }, 'team.join', {
      type: 'team_member',
      id: userId,
      before: existing ? { role: existing.role } : null,
      after: { email: claimed.email, role: claimed.role },
    })
    return userId
  })
}

/** Invitations not yet accepted and not expired, newest first (for the Team Members page). */
export async function listPendingInvitations(db: DB, now = clock.now()) {
  const rows = await db
    .selectFrom('team_invitations')
    .select(['id', 'email', 'first_name', 'last_name', 'role', 'expires_at', 'created_at'])
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: fullName(row.first_name, row.last_name),
    role: row.role,
    expiresAt: row.expires_at.toISOString(),
  }))
}

/** Withdraws a pending invitation: its link stops working at once. */
export async function revokeInvitation(db: DB, actor: audit.Actor, id: string) {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('team_invitations')
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .returning(['email', 'role'])
      .executeTakeFirst()
    if (!row) throw new DomainError('not_found', 'Invitation not found')
    await audit.record(trx, actor, 'team.revoke', { type: 'invitation', id, before: row })
  })
}

/** Forgets every invitation to the address (its account was erased, decision 0053): their name and address go too. */
export async function forgetInvitationsTo(db: DB, email: string): Promise<void> {
  await db
    .deleteFrom('team_invitations')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .execute()
}
