// Co-instructors (decision 0038): a course's owner invites a person by e-mail; the invitee, signed in with that
// address, accepts through the mailed link and may then edit that course (never its price, sale or team). The
// team's size is the owner's plan's: Basic none, Pro up to 3 distinct people across the owner's courses,
// Enterprise unlimited — counted at the invitation and again at the acceptance (the plan may have changed).

import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import { isStaff, type Role } from '../../src-shared/roles.ts'
import { findCourseForReview } from '../catalog/course-review.ts'
import {
  addCoInstructor,
  COURSE_INVITE_TTL_MS,
  cancelInvite,
  claimInvite,
  coInstructors,
  courseShares,
  createInvite,
  findUsableInvite,
  hashInviteToken,
  newInviteToken,
  openInvites,
  ownerTeam,
  removeCoInstructor,
  setCourseShares,
} from '../creators/course-invites.ts'
import { assertCourseRole } from '../creators/course-team.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { normaliseEmail } from '../users/email.ts'
import { type CreatorStanding, creatorStanding, NO_PLAN_MESSAGE } from './creator-standing.ts'

export const COURSE_INVITE_MAIL = 'course-co-instructor-invite'
export const COURSE_INVITE_INVALID =
  'This invitation link is invalid or has expired. Ask the course owner for a new one.'

interface Person {
  id: string
  email: string
  role: Role
}

function teamLimitOf(standing: CreatorStanding): number | null {
  if (!standing.limits) throw new DomainError('precondition', NO_PLAN_MESSAGE)
  const max = standing.limits.teamMembers
  if (max === 0) {
    throw new DomainError(
      'precondition',
      `Your ${standing.planName ?? ''} plan has no co-instructors: upgrade to Pro to invite up to 3 people`.replace(
        /\s+/g,
        ' ',
      ),
    )
  }
  return max
}

/** The owner's team panel for one course: its co-instructors, its open invitations and the plan's team size. */
export async function teamPanel(db: DB, userId: string, courseId: string, overrides?: CreatorLimitOverrides) {
  await assertCourseRole(db, userId, courseId, 'owner')
  const [members, invites, standing, team] = await Promise.all([
    coInstructors(db, courseId),
    openInvites(db, courseId),
    creatorStanding(db, userId, overrides),
    ownerTeam(db, userId),
  ])
  const shares = (await courseShares(db, [courseId])).get(courseId) ?? []
  const percentOf = (id: string) => (shares.find((share) => share.userId === id)?.basisPoints ?? 0) / 100
  const owner = shares.find((share) => share.role === 'owner')
  return {
    /** Each instructor's percentage of the course's earnings, the owner first. */
    shares: owner ? [{ userId: owner.userId, name: 'You (owner)', percent: percentOf(owner.userId) }] : [],
    members: members.map((m) => ({
      userId: m.id,
      email: m.email,
      name: `${m.first_name} ${m.last_name}`.trim(),
      since: m.created_at,
      percent: percentOf(m.id),
    })),
    invites: invites.map((i) => ({ id: i.id, email: i.email, expiresAt: i.expires_at })),
    teamLimit: standing.limits ? standing.limits.teamMembers : 0,
    teamSize: team.size,
    planName: standing.planName,
  }
}

export async function inviteCoInstructor(
  db: DB,
  owner: Person,
  input: { courseId: string; email: string },
  options: { publicUrl: string; overrides?: CreatorLimitOverrides },
  now = clock.now(),
) {
  await assertCourseRole(db, owner.id, input.courseId, 'owner')
  const email = normaliseEmail(input.email)
  if (email === normaliseEmail(owner.email)) {
    throw new DomainError('invalid', 'You already own this course', { field: 'email' })
  }
  const existing = await db
    .selectFrom('users')
    .select(['id', 'role'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst()
  if (existing && isStaff(existing.role)) {
    throw new DomainError('invalid', 'Staff accounts cannot be co-instructors', { field: 'email' })
  }
  if (existing) {
    const already = await db
      .selectFrom('course_instructors')
      .select('role')
      .where('course_id', '=', input.courseId)
      .where('user_id', '=', existing.id)
      .executeTakeFirst()
    if (already) throw new DomainError('conflict', 'This person already teaches this course', { field: 'email' })
  }
  const limit = teamLimitOf(await creatorStanding(db, owner.id, options.overrides, now))
  const team = await ownerTeam(db, owner.id, now)
  if (limit !== null && !team.has(email) && team.size >= limit) {
    throw new DomainError(
      'precondition',
      `Your plan allows up to ${limit} people in your team: remove someone or upgrade to Enterprise`,
    )
  }
  const course = await findCourseForReview(db, input.courseId)
  const token = newInviteToken()
  const link = `${options.publicUrl.replace(/\/$/, '')}/course-invite?token=${token}`
  const expiresAt = new Date(now.getTime() + COURSE_INVITE_TTL_MS)
  await db.transaction().execute(async (trx) => {
    await createInvite(trx, {
      courseId: input.courseId,
      email,
      invitedBy: owner.id,
      tokenHash: hashInviteToken(token),
      expiresAt,
    })
    await enqueueMail(trx, {
      kind: COURSE_INVITE_MAIL,
      to: email,
      subject: `You are invited to co-teach “${course?.title ?? input.courseId}”`,
      text: [
        'Hello,',
        '',
        `${owner.email} invited you to co-teach “${course?.title ?? input.courseId}” on SkillForge.`,
        'Sign in (or sign up) with this address and accept here (the link works once and expires in 7 days):',
        link,
      ].join('\n'),
    })
  })
  return { email, expiresAt: expiresAt.toISOString() }
}

/** What the acceptance page shows: the course, who invited, and whether the signed-in account is the invitee. */
export async function describeCourseInvite(db: DB, user: Person, token: string, now = clock.now()) {
  const invite = await findUsableInvite(db, token, now)
  if (!invite) throw new DomainError('not_found', COURSE_INVITE_INVALID)
  const [course, inviter] = await Promise.all([
    findCourseForReview(db, invite.course_id),
    invite.invited_by
      ? db.selectFrom('users').select(['email']).where('id', '=', invite.invited_by).executeTakeFirst()
      : undefined,
  ])
  return {
    courseTitle: course?.title ?? '',
    invitedBy: inviter?.email ?? null,
    email: invite.email,
    forThisAccount: normaliseEmail(user.email) === normaliseEmail(invite.email),
  }
}

export async function acceptCourseInvite(
  db: DB,
  user: Person,
  token: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
) {
  const invite = await findUsableInvite(db, token, now)
  if (!invite) throw new DomainError('not_found', COURSE_INVITE_INVALID)
  if (normaliseEmail(user.email) !== normaliseEmail(invite.email)) {
    throw new DomainError('forbidden', `This invitation was sent to ${invite.email}: sign in with that address`)
  }
  if (isStaff(user.role)) throw new DomainError('forbidden', 'Staff accounts cannot be co-instructors')
  const ownerRow = await db
    .selectFrom('course_instructors')
    .select('user_id')
    .where('course_id', '=', invite.course_id)
    .where('role', '=', 'owner')
    .executeTakeFirst()
  if (!ownerRow) throw new DomainError('not_found', COURSE_INVITE_INVALID)
  // The plan may have changed since the invitation: count the people who already accepted.
  const standing = await creatorStanding(db, ownerRow.user_id, overrides, now)
  const limit = standing.limits ? standing.limits.teamMembers : 0
  const accepted = await ownerTeam(db, ownerRow.user_id, now, { invites: false })
  if (limit !== null && !accepted.has(normaliseEmail(user.email)) && accepted.size >= limit) {
    throw new DomainError('precondition', 'The course owner’s plan has no room for another co-instructor now')
  }
  await db.transaction().execute(async (trx) => {
    if (!(await claimInvite(trx, invite.id, user.id, now))) throw new DomainError('not_found', COURSE_INVITE_INVALID)
    await addCoInstructor(trx, invite.course_id, user.id)
  })
  return { courseId: invite.course_id }
}

export async function removeCourseCoInstructor(db: DB, ownerId: string, courseId: string, userId: string) {
  await assertCourseRole(db, ownerId, courseId, 'owner')
  // The removed share goes back to the owner in the same transaction: the course's shares always sum to 100 %.
  const removed = await db.transaction().execute((trx) => removeCoInstructor(trx, courseId, userId))
  if (!removed) throw new DomainError('not_found', 'Co-instructor not found')
  return { removed: true }
}

/** The owner sets each instructor's percentage of the course's earnings; future sales split by it. */
export async function setCourseEarningShares(
  db: DB,
  ownerId: string,
  input: { courseId: string; shares: readonly { userId: string; percent: number }[] },
) {
  await assertCourseRole(db, ownerId, input.courseId, 'owner')
  const shares = input.shares.map((share) => ({ userId: share.userId, basisPoints: Math.round(share.percent * 100) }))
  const outcome = await setCourseShares(db, input.courseId, shares)
  if (outcome === 'team_changed') {
    throw new DomainError('conflict', 'The team changed since the page loaded: reload it and set the shares again')
  }
  if (outcome === 'not_whole') throw new DomainError('invalid', 'The shares must add up to exactly 100 %')
  return { saved: true }
}

export async function cancelCourseInvite(db: DB, ownerId: string, courseId: string, inviteId: string) {
  await assertCourseRole(db, ownerId, courseId, 'owner')
  if (!(await cancelInvite(db, courseId, inviteId))) throw new DomainError('not_found', 'Invitation not found')
  return { cancelled: true }
}
