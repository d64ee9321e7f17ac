// Co-instructors (decision 0038): a course's owner invites a person by e-mail; the invitee, signed in with that
// address, accepts through the mailed link and may then edit that course (never its price, sale or team). The
// team's size is the owner's plan's: Basic none, Pro up to 3 distinct people across the owner's courses,
// Enterprise unlimited — counted at the invitation and again at the acceptance (the plan may have changed).

import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import { fullName } from '../../src-shared/names.ts'
import { findCourseForReview } from '../catalog/course-review.ts'
import {
  addCoInstructor,
  coInstructors,
  courseShares,
  removeCoInstructor,
  setCourseShares,
} from '../creators/course-instructors.ts'
import { assertCourseRole, courseOwnerId } from '../creators/course-team.ts'
import { openInvites } from '../creators/invites.ts'
import { courseInstructorRole } from '../creators/school-access.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { RateLimiter } from '../security/rate-limit.ts'
import { NO_PLAN_MESSAGE } from './creator-standing.ts'
import {
  acceptInvite,
  describeInvite,
  type InviteKind,
  type InviteSettings,
  inviteToTeam,
  type Person,
  teamFigures,
  withdrawInvite,
} from './team-invites.ts'

export const COURSE_INVITE_MAIL = 'course-co-instructor-invite'

const COURSE_INVITES: InviteKind<'course'> = {
  scope: 'course',
  mail: COURSE_INVITE_MAIL,
  words: {
    invalid: 'This invitation link is invalid or has expired. Ask the course owner for a new one.',
    staff: 'Staff accounts cannot be co-instructors',
    full: 'The course owner’s plan has no room for another co-instructor now',
    own: 'You already own this course',
    noTeam: (standing) =>
      standing.limits
        ? `Your ${standing.planName ?? ''} plan has no co-instructors: upgrade to Pro to invite up to 3 people`.replace(
            /\s+/g,
            ' ',
          )
        : NO_PLAN_MESSAGE,
  },
  ownerOf: (db, invite) => courseOwnerId(db, invite.scope_id),
  join: (trx, invite, userId) => addCoInstructor(trx, invite.scope_id, userId),
  onTeam: {
    has: async (db, courseId, userId) => Boolean(await courseInstructorRole(db, userId, courseId)),
    refusal: 'This person already teaches this course',
  },
}

/** The owner's team panel for one course: its co-instructors, its open invitations and the plan's team size. */
export async function teamPanel(db: DB, userId: string, courseId: string, overrides?: CreatorLimitOverrides) {
  await assertCourseRole(db, userId, courseId, 'owner')
  const [members, invites, figures] = await Promise.all([
    coInstructors(db, courseId),
    openInvites(db, { scope: 'course', id: courseId }),
    teamFigures(db, userId, overrides),
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
      name: fullName(m.first_name, m.last_name),
      since: m.created_at,
      percent: percentOf(m.id),
    })),
    invites: invites.map((i) => ({ id: i.id, email: i.email, expiresAt: i.expires_at })),
    ...figures,
  }
}

export async function inviteCoInstructor(
  db: DB,
  limiter: RateLimiter,
  owner: Person,
  input: { courseId: string; email: string },
  settings: InviteSettings,
  now = clock.now(),
) {
  await assertCourseRole(db, owner.id, input.courseId, 'owner')
  const title = (await findCourseForReview(db, input.courseId))?.title ?? input.courseId
  return inviteToTeam(
    db,
    limiter,
    COURSE_INVITES,
    owner,
    { id: input.courseId, email: input.email },
    settings,
    {
      subject: `You are invited to co-teach “${title}”`,
      invitation: `${owner.email} invited you to co-teach “${title}” on SkillForge.`,
    },
    now,
  )
}

/** What the acceptance page shows: the course, who invited, and whether the signed-in account is the invitee. */
export async function describeCourseInvite(db: DB, user: Person, token: string, now = clock.now()) {
  const { invite, invitedBy, forThisAccount } = await describeInvite(db, COURSE_INVITES, user, token, now)
  const course = await findCourseForReview(db, invite.scope_id)
  return { courseTitle: course?.title ?? '', invitedBy, email: invite.email, forThisAccount }
}

export async function acceptCourseInvite(
  db: DB,
  user: Person,
  token: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
) {
  const invite = await acceptInvite(db, COURSE_INVITES, user, token, overrides, now)
  return { courseId: invite.scope_id }
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
  return withdrawInvite(db, { scope: 'course', id: courseId }, inviteId)
}
