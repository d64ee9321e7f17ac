// A creator's school and its team (decision 0057): the owner names the school and invites people by e-mail with a
// role (instructor, finance, support); the invitee, signed in with that address, accepts through the mailed
// single-use link. The team's size is the owner's plan's (Basic none, Pro 3 people, Enterprise unlimited), shared with
// the course co-instructors and counted at the invitation and again at the acceptance. Who may do what in the school
// is creators/school-access.ts's answer.
import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import { fullName } from '../../src-shared/names.ts'
import {
  SCHOOL_ROLE_DESCRIPTIONS,
  SCHOOL_ROLE_LABELS,
  type SchoolMemberRoleId,
} from '../../src-shared/schemas/schools.ts'
import { ownerCoursesAfter } from '../catalog/creator-courses.ts'
import { instructorProfilesOf, publishedCoursesByIds } from '../catalog/instructors.ts'
import { revokeKeysHeldBy } from '../creators/api-keys.ts'
import { ownerTeam } from '../creators/course-instructors.ts'
import { unacceptedInvite, unacceptedInvites } from '../creators/invites.ts'
import { findCreator } from '../creators/repository.ts'
import { assertSchoolAction, roleAllows, type SchoolAction, schoolRoleOf } from '../creators/school-access.ts'
import {
  membershipsOf,
  putSchoolMember,
  removeSchoolMember,
  schoolMembers,
  setSchoolMemberRole,
} from '../creators/school-team.ts'
import {
  ensureSchool,
  type School,
  schoolById,
  schoolBySlug,
  schoolCourseIds,
  schoolInstructorUserIds,
  updateSchool,
} from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { publishedBundles } from '../promotions/bundles.ts'
import type { RateLimiter } from '../security/rate-limit.ts'
import { userContact } from '../users/contact.ts'
import { normaliseEmail } from '../users/email.ts'
import { mailSchoolOwner } from './school-owner-mail.ts'
import { endSessionsHeldToSso, schoolHoldsMember, signInName } from './sso-hold.ts'
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

export const SCHOOL_INVITE_MAIL = 'school-team-invite'
/** The mails of a team's changes (decision 0144): to the member removed or given a new role, to the owner when someone
 * joins or leaves. */
export const SCHOOL_TEAM_MAILS = {
  removed: 'school-team-removed',
  roleChanged: 'school-team-role-changed',
  joined: 'school-team-joined',
  left: 'school-team-left',
} as const

const SCHOOL_INVITES: InviteKind<'school'> = {
  scope: 'school',
  mail: SCHOOL_INVITE_MAIL,
  words: {
    invalid: 'This invitation link is invalid or has expired. Ask the school’s owner for a new one.',
    staff: 'Staff accounts cannot join a school’s team',
    full: 'The school’s plan has no room for another team member now',
    own: 'You own this school already',
    noTeam: ({ planName }) =>
      planName
        ? `Your ${planName} plan has no team members: upgrade to Pro to invite up to 3 people`
        : 'You hold no plan with team members: choose Pro (up to 3 people) or Enterprise (unlimited) under Pricing',
  },
  ownerOf: (db, invite) => schoolById(db, invite.scope_id).then((school) => school?.ownerId),
  join: async (trx, invite, userId) => {
    await putSchoolMember(trx, { schoolId: invite.scope_id, userId, role: invite.role, addedBy: invite.invited_by })
    // Joining a school that requires its sign-in, at a domain it proved, holds the account to it from this commit:
    // the sessions made by the password (or a passkey, Google) end now, the accepting one too (decision 0144), as
    // when the owner switches the requirement on (decision 0130).
    await endSessionsHeldToSso(trx, invite.scope_id, { userId })
    const member = await userContact(trx, userId)
    await mailSchoolOwner(trx, invite.scope_id, (school) => ({
      kind: SCHOOL_TEAM_MAILS.joined,
      subject: `${member?.email ?? 'Your invitee'} joined the team of “${school}”`,
      lines: [
        `${personName(member)} accepted your invitation and joined the team of “${school}” as ${SCHOOL_ROLE_LABELS[invite.role].toLowerCase()}.`,
        'You can change their role or remove them on the School page of your studio.',
      ],
    }))
  },
}

/** A person as a mail names them: their name and address, or the address alone. */
function personName(person: { email: string; first_name: string; last_name: string } | undefined) {
  if (!person) return 'Someone'
  const name = fullName(person.first_name, person.last_name)
  return name ? `${name} (${person.email})` : person.email
}

/** The caller's own school (creators only), made on first use. */
export async function ownSchool(db: DB, userId: string): Promise<School> {
  if (!(await findCreator(db, userId))) throw new DomainError('forbidden', 'Only approved creators can use the studio')
  return ensureSchool(db, userId)
}

/**
 * The school the caller acts for and whose data an action reads: a member names it (schoolId), a creator without
 * one acts for their own. Returns the owner's id (whose ledger, courses and questions are the school's).
 */
export async function actingFor(
  db: DB,
  userId: string,
  schoolId: string | undefined,
  action: SchoolAction,
): Promise<{ schoolId: string; ownerId: string }> {
  const id = schoolId ?? (await ownSchool(db, userId)).id
  const { ownerId } = await assertSchoolAction(db, userId, id, action)
  return { schoolId: id, ownerId }
}

/**
 * Whether an invitation can still be accepted: `expired`; `no-room` when the owner's plan has no seat for a new
 * person now (it lapsed, or was changed to a smaller one: acceptInvite would refuse); else `open`.
 */
export type SchoolInviteState = 'open' | 'expired' | 'no-room'

/**
 * What the team section says when the plan no longer covers the team (decision 0144): the rule is that the people
 * already on it keep their places and roles until the owner removes them, and nobody new joins (no invitation is
 * sent or accepted) until the team fits the plan again. Null when the team fits.
 */
function teamNoticeOf(limit: number | null, people: number, planName: string | null): string | null {
  if (limit === null || people <= limit) return null
  if (limit === 0) {
    const stay =
      people === 1
        ? 'the person on your team keeps their place and role'
        : `the ${people} people on your team keep their places and roles`
    return `Your plan no longer includes team members: ${stay} until you remove them, but nobody new can join and open invitations cannot be accepted. Choose Pro or Enterprise under Pricing to invite people again.`
  }
  return `Your ${planName ?? 'current'} plan includes up to ${limit} people and your team has ${people}: everyone keeps their place until you remove them, but nobody new can join until the team fits the plan.`
}

/** The owner's school page: settings, members, invitations (open, expired, or without room) and the plan's team size. */
export async function schoolPanel(db: DB, userId: string, overrides?: CreatorLimitOverrides, now = clock.now()) {
  const school = await ownSchool(db, userId)
  const [members, invites, figures, accepted] = await Promise.all([
    schoolMembers(db, school.id),
    unacceptedInvites(db, { scope: 'school', id: school.id }),
    teamFigures(db, userId, overrides, now),
    ownerTeam(db, userId, now, { invites: false }),
  ])
  // As acceptInvite counts: a new person needs a free seat among the people who accepted.
  const full = figures.teamLimit !== null && accepted.size >= figures.teamLimit
  const stateOf = (invite: { email: string; expires_at: Date }): SchoolInviteState => {
    if (invite.expires_at <= now) return 'expired'
    return full && !accepted.has(normaliseEmail(invite.email)) ? 'no-room' : 'open'
  }
  return {
    school: { id: school.id, name: school.name, slug: school.slug },
    members: members.map((m) => ({
      userId: m.id,
      email: m.email,
      name: fullName(m.first_name, m.last_name),
      role: m.role,
      since: m.created_at,
    })),
    invites: invites.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      expiresAt: i.expires_at,
      state: stateOf(i),
    })),
    ...figures,
    teamNotice: teamNoticeOf(figures.teamLimit, accepted.size, figures.planName),
  }
}

export async function saveSchoolSettings(db: DB, userId: string, input: { name: string; slug: string }) {
  const school = await ownSchool(db, userId)
  await assertSchoolAction(db, userId, school.id, 'school.manage')
  await updateSchool(db, school.id, input)
  return { slug: input.slug }
}

export async function inviteSchoolMember(
  db: DB,
  limiter: RateLimiter,
  owner: Person,
  input: { email: string; role: SchoolMemberRoleId },
  settings: InviteSettings,
  now = clock.now(),
) {
  const school = await ownSchool(db, owner.id)
  await assertSchoolAction(db, owner.id, school.id, 'school.manage')
  const roleLabel = SCHOOL_ROLE_LABELS[input.role]
  const { email, expiresAt } = await inviteToTeam(
    db,
    limiter,
    SCHOOL_INVITES,
    owner,
    { id: school.id, email: input.email, role: input.role },
    settings,
    {
      subject: `You are invited to join “${school.name}” as ${roleLabel.toLowerCase()}`,
      invitation: `${owner.email} invited you to join the team of “${school.name}” on SkillForge, with the role ${roleLabel}.`,
    },
    now,
  )
  return { email, role: input.role, expiresAt }
}

/**
 * "Resend" on an invitation, open or expired: a new one to the same address and role, with a new token and 7 days,
 * mailed again; the old link stops working (createInvite replaces it, open or expired). It
 * counts as an invitation: the plan's room and the hourly limit are asked as for a new one.
 */
export async function resendSchoolInvitation(
  db: DB,
  limiter: RateLimiter,
  owner: Person,
  inviteId: string,
  settings: InviteSettings,
  now = clock.now(),
) {
  const school = await ownSchool(db, owner.id)
  await assertSchoolAction(db, owner.id, school.id, 'school.manage')
  const target = { scope: 'school', id: school.id } as const
  const invite = await unacceptedInvite(db, target, inviteId)
  if (!invite) throw new DomainError('not_found', 'Invitation not found')
  // createInvite replaces every unaccepted invitation to the address (the expired one too) in the transaction that
  // makes the new one: refused (no room, the hourly limit), the old row stays listed as it was.
  return inviteSchoolMember(db, limiter, owner, { email: invite.email, role: invite.role }, settings, now)
}

/** What the acceptance page shows: the school, the role, who invited, and whether this account is the invitee. */
export async function describeSchoolInvite(db: DB, user: Person, token: string, now = clock.now()) {
  const { invite, invitedBy, forThisAccount } = await describeInvite(db, SCHOOL_INVITES, user, token, now)
  const school = await schoolById(db, invite.scope_id)
  if (!school) throw new DomainError('not_found', SCHOOL_INVITES.words.invalid)
  return { schoolName: school.name, role: invite.role, invitedBy, email: invite.email, forThisAccount }
}

export async function acceptSchoolInvite(
  db: DB,
  user: Person,
  token: string,
  overrides?: CreatorLimitOverrides,
  now = clock.now(),
) {
  const invite = await acceptInvite(db, SCHOOL_INVITES, user, token, overrides, now)
  // Held to the school's sign-in by joining, this session has ended (SCHOOL_INVITES.join): the page sends the browser
  // to that sign-in.
  const school = await schoolById(db, invite.scope_id)
  const signInWith =
    school && (await schoolHoldsMember(db, school.id, user.id))
      ? { name: await signInName(db, school), slug: school.slug }
      : null
  return { schoolId: invite.scope_id, role: invite.role, signInWith }
}

/** The settings the team's mails read: the address their links start with. */
export type TeamMailSettings = Pick<AppConfig, 'publicUrl'>

const memberPage = (settings: TeamMailSettings, schoolId: string) =>
  `${settings.publicUrl.replace(/\/$/, '')}/member/${schoolId}`

/** The owner gives a member another role; the member is mailed (what the role lets them do, and where). */
export async function changeSchoolMemberRole(
  db: DB,
  ownerId: string,
  memberId: string,
  role: SchoolMemberRoleId,
  settings: TeamMailSettings,
) {
  const school = await ownSchool(db, ownerId)
  await assertSchoolAction(db, ownerId, school.id, 'school.manage')
  await db.transaction().execute(async (trx) => {
    const before = await schoolRoleOf(trx, memberId, school.id)
    if (!(await setSchoolMemberRole(trx, school.id, memberId, role))) {
      throw new DomainError('not_found', 'Team member not found')
    }
    const member = await userContact(trx, memberId)
    if (!member || before === role) return
    await enqueueMail(trx, {
      kind: SCHOOL_TEAM_MAILS.roleChanged,
      to: member.email,
      subject: `Your role in “${school.name}” is now ${SCHOOL_ROLE_LABELS[role].toLowerCase()}`,
      text: [
        'Hello,',
        '',
        `The owner of “${school.name}” changed your role on its team to ${SCHOOL_ROLE_DESCRIPTIONS[role]}.`,
        `Your page for the school: ${memberPage(settings, school.id)}`,
        '',
      ].join('\n'),
    })
  })
  return { role }
}

/**
 * What a member's place on the team takes with it, whoever ends it (the owner, or the member leaving): the membership
 * and the API keys they made for the school (decision 0060). Their access to the school's courses, earnings and
 * messages, and a school's hold on their sign-in (decision 0130), go with the membership. False: not on the team.
 */
async function endMembership(trx: DB, schoolId: string, memberId: string): Promise<boolean> {
  if (!(await removeSchoolMember(trx, schoolId, memberId))) return false
  await revokeKeysHeldBy(trx, schoolId, memberId)
  return true
}

/** The owner removes a member; the member is mailed that they are no longer on the team. */
export async function removeFromSchool(db: DB, ownerId: string, memberId: string) {
  const school = await ownSchool(db, ownerId)
  await assertSchoolAction(db, ownerId, school.id, 'school.manage')
  await db.transaction().execute(async (trx) => {
    if (!(await endMembership(trx, school.id, memberId))) {
      throw new DomainError('not_found', 'Team member not found')
    }
    const member = await userContact(trx, memberId)
    if (!member) return
    await enqueueMail(trx, {
      kind: SCHOOL_TEAM_MAILS.removed,
      to: member.email,
      subject: `You are no longer on the team of “${school.name}”`,
      text: [
        'Hello,',
        '',
        `The owner of “${school.name}” removed you from its team: you no longer work on its courses, earnings or`,
        'messages, and the API keys you made for it no longer work. Your own account is unchanged.',
        '',
      ].join('\n'),
    })
  })
  return { removed: true }
}

/**
 * A member leaves a school's team of their own accord (decision 0144), with what a removal takes (endMembership);
 * the owner is mailed. Someone not on that school's team (its owner included) is told so.
 */
export async function leaveSchool(db: DB, userId: string, schoolId: string) {
  await db.transaction().execute(async (trx) => {
    if (!(await endMembership(trx, schoolId, userId))) {
      throw new DomainError('not_found', 'You are not on this school’s team')
    }
    const member = await userContact(trx, userId)
    await mailSchoolOwner(trx, schoolId, (school) => ({
      kind: SCHOOL_TEAM_MAILS.left,
      subject: `${member?.email ?? 'A member'} left the team of “${school}”`,
      lines: [
        `${personName(member)} left the team of “${school}”: they no longer work on its courses, earnings or messages,`,
        'and the API keys they made for it no longer work.',
      ],
    }))
  })
  return { left: true }
}

export async function cancelSchoolInvitation(db: DB, ownerId: string, inviteId: string) {
  const school = await ownSchool(db, ownerId)
  await assertSchoolAction(db, ownerId, school.id, 'school.manage')
  return withdrawInvite(db, { scope: 'school', id: school.id }, inviteId)
}

/** The schools the signed-in person works for as a member, with their role (their own school is not listed). */
export async function mySchoolMemberships(db: DB, userId: string) {
  const rows = await membershipsOf(db, userId)
  return rows.map((row) => ({ schoolId: row.id, name: row.name, slug: row.slug, role: row.role }))
}

/**
 * The courses of a school a member works on (instructor and support: `course.view`): id, title and state, and
 * whether their role edits them. Anyone else is refused as school-access.ts says (not found / forbidden).
 */
export async function memberSchoolCourses(db: DB, userId: string, schoolId: string) {
  const { role, ownerId } = await assertSchoolAction(db, userId, schoolId, 'course.view')
  const courses = await ownerCoursesAfter(db, ownerId, null, 200)
  const canEdit = roleAllows(role, 'course.edit')
  return courses.map((course) => ({ id: course.id, title: course.title, status: course.status, canEdit }))
}

/** The public page /s/{slug}: the school, its published courses, its bundles and its instructors; null if unknown. */
export async function publicSchoolPage(db: DB, slug: string) {
  const school = await schoolBySlug(db, slug)
  if (!school) return null
  const [courses, bundles, instructors] = await Promise.all([
    schoolCourseIds(db, school.ownerId).then((ids) => publishedCoursesByIds(db, ids)),
    publishedBundles(db, { ownerId: school.ownerId }),
    schoolInstructorUserIds(db, school).then((ids) => instructorProfilesOf(db, ids)),
  ])
  return { school, courses, bundles, instructors }
}
