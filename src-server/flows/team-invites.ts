// The steps every team invitation takes, whichever its scope (a course's co-instructors, decision 0038, or a
// school's team, decision 0057): the invitee may not be staff; the owner's plan must have room (one team across the
// owner's courses and school, counted at the invitation and again at the acceptance); the token goes out only in the
// mailed link, queued in the transaction that records the invitation; the acceptance is single use and for the
// invited address only; an owner sends at most RATE_RULES.teamInvites in an hour (decision 0117). creators/invites.ts
// keeps the invitations.
import type { SchoolMemberRole } from '../../db/types.ts'
import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import { isStaff, type Role } from '../../src-shared/roles.ts'
import { ownerTeam } from '../creators/course-instructors.ts'
import {
  cancelInvite,
  claimInvite,
  createInvite,
  findUsableInvite,
  type InviteScope,
  type InviteTarget,
} from '../creators/invites.ts'
import * as clock from '../kernel/clock.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { normaliseEmail } from '../users/email.ts'
import { type CreatorStanding, creatorStanding, lockTeamSeats } from './creator-standing.ts'

export const TOO_MANY_INVITES = 'You have sent many team invitations in the last hour. Please try again later.'

export interface Person {
  id: string
  email: string
  role: Role
}

/** What a scope's refusals say. */
export interface InviteWords {
  /** The link is unknown, used or expired. */
  invalid: string
  /** A staff account is invited or accepts. */
  staff: string
  /** The owner's plan has no room left at the acceptance. */
  full: string
  /** The owner invites their own address. */
  own: string
  /** The owner's plan (or the lack of one) has no team at all. */
  noTeam: (standing: CreatorStanding) => string
}

type UsableInvite<S extends InviteScope> = NonNullable<Awaited<ReturnType<typeof findUsableInvite<S>>>>

/**
 * One scope's invitations: the mail they go out as, what its refusals say, who owns the course or school
 * (undefined: gone) and how the accepting invitee joins it.
 */
export interface InviteKind<S extends InviteScope> {
  scope: S
  mail: string
  words: InviteWords
  ownerOf: (db: DB, invite: UsableInvite<S>) => Promise<string | undefined>
  join: (trx: DB, invite: UsableInvite<S>, userId: string) => Promise<void>
  /** Where an account already on the team is refused at the invitation (courses; a school re-invites to a new role). */
  onTeam?: { has: (db: DB, targetId: string, userId: string) => Promise<boolean>; refusal: string }
}

/** The settings an invitation reads: the address its link starts with and the plan limits' overrides. */
export type InviteSettings = Pick<AppConfig, 'publicUrl' | 'creatorLimits'>

/** A team panel's figures: the plan's team size (0 without a plan), the people counted in it and the plan's name. */
export async function teamFigures(db: DB, ownerId: string, overrides?: CreatorLimitOverrides, now = clock.now()) {
  const [standing, team] = await Promise.all([
    creatorStanding(db, ownerId, overrides, now),
    ownerTeam(db, ownerId, now),
  ])
  return {
    teamLimit: teamSizeOf(standing),
    teamSize: team.size,
    planName: standing.planName,
  }
}

/** The plan's team size: 0 without a live plan, null for no limit. */
function teamSizeOf(standing: CreatorStanding): number | null {
  return standing.limits ? standing.limits.teamMembers : 0
}

/**
 * Invites `target.email` to the course's or school's team: the address is normalised and may not be the owner's
 * or a staff account's (nor, where the scope says so, someone already on the team); the owner's plan must have a
 * team, and room for a new address (members and open invitations of both scopes count). Then records the
 * invitation and queues its mail in one transaction. The mail's link (/{scope}-invite?token=…) is the only place
 * the token goes; the database keeps its hash.
 */
export async function inviteToTeam<S extends InviteScope>(
  db: DB,
  limiter: RateLimiter,
  kind: InviteKind<S>,
  owner: Person,
  target: { id: string; email: string; role?: SchoolMemberRole },
  settings: InviteSettings,
  mail: { subject: string; invitation: string },
  now: Date,
): Promise<{ email: string; expiresAt: string }> {
  const { words } = kind
  const email = normaliseEmail(target.email)
  if (email === normaliseEmail(owner.email)) throw new DomainError('invalid', words.own, { field: 'email' })
  const existing = await db
    .selectFrom('users')
    .select(['id', 'role'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst()
  // A staff address is invited as any other (decision 0114): refusing it here told any creator which addresses are
  // the staff's. A staff account cannot accept (acceptInvite), and the mail says nothing it could use.
  if (existing && kind.onTeam && (await kind.onTeam.has(db, target.id, existing.id))) {
    throw new DomainError('conflict', kind.onTeam.refusal, { field: 'email' })
  }
  // Counted per owner before the mail is queued, and given back when nothing was sent (a full plan, say).
  const attempt = await reserveAttempt(
    limiter,
    [{ rule: RATE_RULES.teamInvites, key: `team-invite:${owner.id}` }],
    TOO_MANY_INVITES,
  )
  try {
    const expiresAt = await db.transaction().execute(async (trx) => {
      // The team is counted under the owner's team lock, in the transaction that records the invitation: two
      // invitations at once would otherwise both see the last free seat.
      await lockTeamSeats(trx, owner.id)
      const standing = await creatorStanding(trx, owner.id, settings.creatorLimits, now)
      const limit = teamSizeOf(standing)
      if (limit === 0) throw new DomainError('precondition', words.noTeam(standing))
      const team = await ownerTeam(trx, owner.id, now)
      if (limit !== null && !team.has(email) && team.size >= limit) {
        throw new DomainError(
          'precondition',
          `Your plan allows up to ${limit} people in your team: remove someone or upgrade to Enterprise`,
        )
      }
      const invite = { email, invitedBy: owner.id, role: target.role }
      const { token, expiresAt } = await createInvite(trx, { scope: kind.scope, id: target.id }, invite, now)
      await enqueueMail(trx, {
        kind: kind.mail,
        to: email,
        subject: mail.subject,
        text: [
          'Hello,',
          '',
          mail.invitation,
          'Sign in (or sign up) with this address and accept here (the link works once and expires in 7 days):',
          `${settings.publicUrl.replace(/\/$/, '')}/${kind.scope}-invite?token=${token}`,
        ].join('\n'),
      })
      return expiresAt
    })
    return { email, expiresAt: expiresAt.toISOString() }
  } catch (error) {
    await attempt.release()
    throw error
  }
}

/** The acceptance page's view of a usable invitation: who invited, and whether the signed-in account is the invitee. */
export async function describeInvite<S extends InviteScope>(
  db: DB,
  kind: InviteKind<S>,
  user: Person,
  token: string,
  now = clock.now(),
) {
  const invite = await findUsableInvite(db, kind.scope, token, now)
  if (!invite) throw new DomainError('not_found', kind.words.invalid)
  const inviter = invite.invited_by
    ? await db.selectFrom('users').select(['email']).where('id', '=', invite.invited_by).executeTakeFirst()
    : undefined
  return {
    invite,
    invitedBy: inviter?.email ?? null,
    forThisAccount: normaliseEmail(user.email) === normaliseEmail(invite.email),
  }
}

/**
 * Accepts an invitation for the signed-in invitee: the invited address only, never staff, while the owner's plan
 * (read now: it may have changed since the invitation) has room; the claim and `join` run in one transaction, and
 * of two concurrent accepts only one claims.
 */
export async function acceptInvite<S extends InviteScope>(
  db: DB,
  kind: InviteKind<S>,
  user: Person,
  token: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
): Promise<UsableInvite<S>> {
  const { scope, words } = kind
  const invite = await findUsableInvite(db, scope, token, now)
  if (!invite) throw new DomainError('not_found', words.invalid)
  if (normaliseEmail(user.email) !== normaliseEmail(invite.email)) {
    throw new DomainError('forbidden', `This invitation was sent to ${invite.email}: sign in with that address`)
  }
  if (isStaff(user.role)) throw new DomainError('forbidden', words.staff)
  const ownerId = await kind.ownerOf(db, invite)
  if (!ownerId) throw new DomainError('not_found', words.invalid)
  await db.transaction().execute(async (trx) => {
    // Counted under the owner's team lock with the claim and the join: two acceptances at once would otherwise
    // both see the last free seat.
    await lockTeamSeats(trx, ownerId)
    const limit = teamSizeOf(await creatorStanding(trx, ownerId, overrides, now))
    const accepted = await ownerTeam(trx, ownerId, now, { invites: false })
    if (limit !== null && !accepted.has(normaliseEmail(user.email)) && accepted.size >= limit) {
      throw new DomainError('precondition', words.full)
    }
    if (!(await claimInvite(trx, scope, invite.id, user.id, now))) throw new DomainError('not_found', words.invalid)
    await kind.join(trx, invite, user.id)
  })
  return invite
}

/** The owner withdraws an invitation not accepted yet; one of another course or school is not found. */
export async function withdrawInvite(db: DB, target: InviteTarget, inviteId: string) {
  if (!(await cancelInvite(db, target, inviteId))) throw new DomainError('not_found', 'Invitation not found')
  return { cancelled: true }
}
