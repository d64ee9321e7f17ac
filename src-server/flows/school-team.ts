// A creator's school and its team (decision 0057): the owner names the school and invites people by e-mail with a
// role (instructor, finance, support); the invitee, signed in with that address, accepts through the mailed
// single-use link. The team's size is the owner's plan's (Basic none, Pro 3 people, Enterprise unlimited), shared with
// the course co-instructors and counted at the invitation and again at the acceptance. Who may do what in the school
// is creators/school-access.ts's answer.
import type { CreatorLimitOverrides } from '../../src-shared/creator-plans.ts'
import { fullName } from '../../src-shared/names.ts'
import { SCHOOL_ROLE_LABELS, type SchoolMemberRoleId } from '../../src-shared/schemas/schools.ts'
import { ownerCoursesAfter } from '../catalog/creator-courses.ts'
import { instructorProfilesOf, publishedCoursesByIds } from '../catalog/instructors.ts'
import { revokeKeysHeldBy } from '../creators/api-keys.ts'
import { openInvites } from '../creators/invites.ts'
import { findCreator } from '../creators/repository.ts'
import { assertSchoolAction, roleAllows, type SchoolAction } from '../creators/school-access.ts'
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
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { publishedBundles } from '../promotions/bundles.ts'
import type { RateLimiter } from '../security/rate-limit.ts'
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
  join: (trx, invite, userId) =>
    putSchoolMember(trx, { schoolId: invite.scope_id, userId, role: invite.role, addedBy: invite.invited_by }),
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

/** The owner's school page: settings, members, open invitations and the plan's team size. */
export async function schoolPanel(db: DB, userId: string, overrides?: CreatorLimitOverrides, now = clock.now()) {
  const school = await ownSchool(db, userId)
  const [members, invites, figures] = await Promise.all([
    schoolMembers(db, school.id),
    openInvites(db, { scope: 'school', id: school.id }, now),
    teamFigures(db, userId, overrides, now),
  ])
  return {
    school: { id: school.id, name: school.name, slug: school.slug },
    members: members.map((m) => ({
      userId: m.id,
      email: m.email,
      name: fullName(m.first_name, m.last_name),
      role: m.role,
      since: m.created_at,
    })),
    invites: invites.map((i) => ({ id: i.id, email: i.email, role: i.role, expiresAt: i.expires_at })),
    ...figures,
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
  return { schoolId: invite.scope_id, role: invite.role }
}

export async function changeSchoolMemberRole(db: DB, ownerId: string, memberId: string, role: SchoolMemberRoleId) {
  const school = await ownSchool(db, ownerId)
  await assertSchoolAction(db, ownerId, school.id, 'school.manage')
  if (!(await setSchoolMemberRole(db, school.id, memberId, role))) {
    throw new DomainError('not_found', 'Team member not found')
  }
  return { role }
}

export async function removeFromSchool(db: DB, ownerId: string, memberId: string) {
  const school = await ownSchool(db, ownerId)
  await assertSchoolAction(db, ownerId, school.id, 'school.manage')
  await db.transaction().execute(async (trx) => {
    if (!(await removeSchoolMember(trx, school.id, memberId))) {
      throw new DomainError('not_found', 'Team member not found')
    }
    // The keys they held die with their place on the team (decision 0060).
    await revokeKeysHeldBy(trx, school.id, memberId)
  })
  return { removed: true }
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
