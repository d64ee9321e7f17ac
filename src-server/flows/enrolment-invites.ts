// A school's invitation to take one of its courses (decision 0128). The REST API enrols at once only a learner the
// school already knows (one who holds or held one of its courses); anyone else, with an account or without one, is
// mailed an invitation and enrolled when they accept it signed in with the invited address. The API's answer is the
// same either way, so a school learns nothing about who has an account here, and sees a new learner's name and
// address only once they have said yes. The token goes out only in the mailed link; the database keeps its hash.
import { grant, restore } from '../access/ledger.ts'
import { courseOwners } from '../catalog/creator-courses.ts'
import { findPublishedCourse } from '../catalog/repository.ts'
import {
  claimInvite,
  createInvite,
  findUsableInvite,
  INVITE_TTL_MS,
  newestEnrolmentInvites,
  openInvites,
  withdrawEnrolmentInvite,
} from '../creators/invites.ts'
import { schoolOfOwner } from '../creators/schools.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, lockKeyForTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES, type RateLimiter } from '../security/rate-limit.ts'
import { normaliseEmail } from '../users/email.ts'
import { emitEnrolmentGranted } from './webhook-events.ts'

export const ENROLMENT_INVITE_MAIL = 'course-enrolment-invite'
export const INVALID_ENROLMENT_INVITE = 'This invitation link is invalid or has expired. Ask the school for a new one.'
export const ENROLMENT_COURSE_CLOSED =
  'This course is not open at the moment. Your invitation still works until it expires: try again later, or ask the school.'
export const TOO_MANY_ENROLMENT_INVITES =
  'Your school has sent many course invitations in the last hour. Please try again later.'
/** The studio shows this many open invitations at most, newest first (the REST API pages through them all). */
export const STUDIO_INVITES_SHOWN = 100
/** A second request for the same address and course within this time answers with the invitation already mailed. */
const RESEND_AFTER_MS = 60 * 60 * 1000

/**
 * Grants the course as its school (source 'staff', granted by the owner); a revoked school grant is given back. A new
 * or restored grant is the school's enrolment.granted webhook (source 'school', as the REST API names it).
 */
export async function grantAsSchool(trx: DB, userId: string, courseId: string, ownerId: string) {
  const given = await grant(trx, {
    userId,
    right: { kind: 'course', courseId },
    source: { kind: 'staff', staffId: ownerId },
  })
  const restored = given.created ? 0 : await restore(trx, { grantId: given.id })
  const created = given.created || restored > 0
  // grantId: the enrolment's id, as these events carried it before they all named it enrolmentId (decision 0141).
  if (created) {
    await emitEnrolmentGranted(
      trx,
      courseId,
      { id: given.id, source: 'staff' },
      { learnerId: userId, grantId: given.id },
    )
  }
  return { id: given.id, created }
}

async function courseAndSchool(db: DB, courseId: string, ownerId: string) {
  const course = await db
    .selectFrom('courses')
    .select(['title', 'instructor_name'])
    .where('id', '=', courseId)
    .executeTakeFirstOrThrow()
  const school = await schoolOfOwner(db, ownerId)
  return { title: course.title, schoolName: school?.name ?? course.instructor_name }
}

/**
 * Invites `email` to take the owner's course: records the invitation and queues its mail in one transaction, at most
 * RATE_RULES.enrolmentInvites an hour per owner. A request for an address already invited to the course within the
 * hour mails nothing again and answers with that invitation.
 */
export async function inviteToCourse(
  db: DB,
  limiter: RateLimiter,
  invite: { ownerId: string; courseId: string; email: string },
  publicUrl: string,
  now = clock.now(),
) {
  const email = normaliseEmail(invite.email)
  const target = { scope: 'enrolment' as const, id: invite.courseId }
  const answer = (row: { id: string; expires_at: Date }) => ({
    id: row.id,
    email,
    courseId: invite.courseId,
    expiresAt: row.expires_at,
  })
  // One indexed row (the open invitation to this address), not every open invitation to the course.
  const recentOf = async (reader: DB) => {
    const [open] = await openInvites(reader, target, now, email)
    return open && now.getTime() - open.created_at.getTime() < RESEND_AFTER_MS ? open : undefined
  }
  const recent = await recentOf(db)
  if (recent) return answer(recent)
  const attempt = await reserveAttempt(
    limiter,
    [{ rule: RATE_RULES.enrolmentInvites, key: `enrolment-invite:${invite.ownerId}` }],
    TOO_MANY_ENROLMENT_INVITES,
  )
  try {
    const { title, schoolName } = await courseAndSchool(db, invite.courseId, invite.ownerId)
    const sent = await db.transaction().execute(async (trx) => {
      // Two requests for one address at once: the second waits here and then answers with the first's invitation.
      // Without the lock both would insert, and one would fail on the open-invitation index (a 500 to the school).
      await lockKeyForTransaction(trx, `enrolment-invite:${invite.courseId}:${email}`)
      const meanwhile = await recentOf(trx)
      if (meanwhile) return { invitation: answer(meanwhile), mailed: false }
      const created = await createInvite(trx, target, { email, invitedBy: invite.ownerId }, now)
      const days = Math.round(INVITE_TTL_MS / 86_400_000)
      await enqueueMail(trx, {
        kind: ENROLMENT_INVITE_MAIL,
        to: email,
        subject: `${schoolName} invites you to take “${title}”`,
        text: [
          'Hello,',
          '',
          `${schoolName} invites you to take the course “${title}” on SkillForge, free of charge.`,
          `Sign in (or sign up) with this address and accept here (the link works once and expires in ${days} days):`,
          `${publicUrl.replace(/\/$/, '')}/enrolment-invite?token=${created.token}`,
          '',
          'If you do not know this school, ignore this mail: nothing happens, and the school is not told.',
        ].join('\n'),
      })
      return { invitation: answer({ id: created.id, expires_at: created.expiresAt }), mailed: true }
    })
    // Nothing was mailed: the attempt is given back, as for a request answered before the transaction.
    if (!sent.mailed) await attempt.release()
    return sent.invitation
  } catch (error) {
    await attempt.release()
    throw error
  }
}

/** The invitation a usable token names, with its course's current owner; a course gone or ownerless is invalid. */
async function usableInvite(db: DB, token: string, now: Date) {
  const invite = await findUsableInvite(db, 'enrolment', token, now)
  const ownerId = invite ? (await courseOwners(db, [invite.scope_id])).get(invite.scope_id) : undefined
  if (!invite || !ownerId) throw new DomainError('not_found', INVALID_ENROLMENT_INVITE)
  return { invite, ownerId }
}

/** The acceptance page's view: the course, the school, and whether the signed-in account is the invitee. */
export async function describeEnrolmentInvite(db: DB, user: { email: string }, token: string, now = clock.now()) {
  const { invite, ownerId } = await usableInvite(db, token, now)
  const { title, schoolName } = await courseAndSchool(db, invite.scope_id, ownerId)
  return {
    email: invite.email,
    courseId: invite.scope_id,
    courseTitle: title,
    schoolName,
    forThisAccount: normaliseEmail(user.email) === normaliseEmail(invite.email),
  }
}

/**
 * Accepts for the signed-in invitee (the invited address only): the claim (single use: of two concurrent accepts
 * one claims) and the school's grant run in one transaction.
 */
export async function acceptEnrolmentInvite(
  db: DB,
  user: { id: string; email: string },
  token: string,
  now = clock.now(),
) {
  const { invite, ownerId } = await usableInvite(db, token, now)
  if (normaliseEmail(user.email) !== normaliseEmail(invite.email)) {
    throw new DomainError('forbidden', `This invitation was sent to ${invite.email}: sign in with that address`)
  }
  // Unpublished since it was sent: enrolled now, the learner would find no course. The link stays good for later.
  if (!(await findPublishedCourse(db, invite.scope_id))) throw new DomainError('precondition', ENROLMENT_COURSE_CLOSED)
  await db.transaction().execute(async (trx) => {
    if (!(await claimInvite(trx, 'enrolment', invite.id, user.id, now))) {
      throw new DomainError('not_found', INVALID_ENROLMENT_INVITE)
    }
    await grantAsSchool(trx, user.id, invite.scope_id, ownerId)
  })
  return { courseId: invite.scope_id }
}

/**
 * The studio's list of the open invitations to the owner's courses (they are sent through the REST API): who, to
 * which course, until when; `more` when there are more than the page shows.
 */
export async function studioEnrolmentInvites(db: DB, ownerId: string, now = clock.now()) {
  const rows = await newestEnrolmentInvites(db, ownerId, STUDIO_INVITES_SHOWN + 1, now)
  return {
    items: rows.slice(0, STUDIO_INVITES_SHOWN).map((row) => ({
      id: row.id,
      email: row.email,
      courseId: row.course_id,
      courseTitle: row.course_title,
      expiresAt: row.expires_at,
    })),
    more: rows.length > STUDIO_INVITES_SHOWN,
  }
}

/** The owner withdraws an invitation from the studio: its link stops working. Another school's is not found. */
export async function withdrawStudioEnrolmentInvite(db: DB, ownerId: string, inviteId: string) {
  const row = await withdrawEnrolmentInvite(db, ownerId, inviteId)
  if (!row) throw new DomainError('not_found', 'This invitation was accepted or withdrawn already')
  return { email: row.email }
}
