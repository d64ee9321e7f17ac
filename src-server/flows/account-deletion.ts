// "Delete my account" (issue 28; UK GDPR / GDPR Art. 17). The person confirms with a fresh proof (password, app code
// or an e-mailed code: auth/confirm-action.ts); a 14-day cool-off follows (a mail now and the day before; signing in
// offers to cancel); then the deletion job ('privacy.account-deletions') erases the account in one transaction per
// person. What is kept, and why, is decision 0053: invoices and credit notes unchanged, orders' totals without the
// billing details, the earnings ledger and the audit log keyed to the account id only. Rerunning it changes nothing.
import { formatDate } from '../../src-shared/dates.ts'
import { ACCOUNT_DELETION_COOL_OFF_DAYS } from '../../src-shared/retention.ts'
import { liveGrants } from '../access/ledger.ts'
import { record } from '../audit/repository.ts'
import { type ActionProof, confirmAction } from '../auth/confirm-action.ts'
import { invalidateUserSessions } from '../auth/session.ts'
import type { TwoFactorSettings } from '../auth/two-factor.ts'
import { creatorBalances } from '../earnings/balances.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { cancelDeletion, deletionOf, scheduleDeletion } from '../privacy/deletions.ts'
import { renewingSubscriptionsOf } from '../subscriptions/repository.ts'

export const DELETION_MAIL_KINDS = {
  requested: 'account-deletion-requested',
  reminder: 'account-deletion-reminder',
  cancelled: 'account-deletion-cancelled',
  erased: 'account-deletion-done',
} as const

export const DELETION_MESSAGES = {
  owner: 'You are the owner of this shop. Hand the ownership to another admin before deleting your account.',
  balance:
    'You have creator earnings not paid out yet. They are paid with the next monthly payout; delete your account after that.',
  payout: 'A payout to you is still being sent. Try again once it has arrived.',
  membership: 'You have a membership that renews. Cancel it (Account → Membership) before deleting your account.',
  erased: 'This account has been deleted.',
} as const

/** The pseudonym left where others rely on the content (reviews, questions, messages). */
export const DELETED_USER_NAME = 'Deleted user'
export const erasedEmail = (userId: string) => `deleted-${userId}@erased.invalid`

/** Why this person cannot delete their account yet (empty when they can): each reason is a sentence to show. */
export async function deletionBlockers(db: DB, userId: string): Promise<string[]> {
  const user = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst()
  if (!user) return [DELETION_MESSAGES.erased]
  const blockers: string[] = []
  if (user.role === 'super_admin') blockers.push(DELETION_MESSAGES.owner)
  const balances = await creatorBalances(db, userId)
  if (balances.some((balance) => balance.pendingMinor > 0 || balance.availableMinor > 0)) {
    blockers.push(DELETION_MESSAGES.balance)
  }
  const openPayout = await db
    .selectFrom('creator_payouts')
    .select('id')
    .where('creator_id', '=', userId)
    .where('status', 'in', ['pending', 'sending', 'unconfirmed', 'failed'])
    .executeTakeFirst()
  if (openPayout) blockers.push(DELETION_MESSAGES.payout)
  if ((await renewingSubscriptionsOf(db, userId)).length > 0) blockers.push(DELETION_MESSAGES.membership)
  return blockers
}

/**
 * What the erasure will take from the person, each a sentence the form shows before they confirm: the courses they
 * hold and a Premium term still running (a renewing plan is a blocker instead; a gifted or cancelled one runs on to its
 * end and is lost with the account), then what it does to their teaching.
 */
export async function deletionConsequences(db: DB, userId: string): Promise<string[]> {
  const consequences: string[] = []
  const grants = await liveGrants(db, userId)
  const heldCourses = new Set(
    grants.flatMap((held) => (held.kind === 'course' && held.courseId ? [held.courseId] : [])),
  )
  if (heldCourses.size > 0) consequences.push(DELETION_CONSEQUENCES.courses(heldCourses.size))
  const premium = grants.filter((held) => held.kind === 'premium')
  if (premium.length > 0) {
    const ends = premium.map((held) => held.endsAt)
    const last = ends.includes(null) ? null : new Date(Math.max(...ends.map((end) => end!.getTime())))
    consequences.push(DELETION_CONSEQUENCES.premiumAccess(last))
  }
  const taught = await db
    .selectFrom('course_instructors as i')
    .innerJoin('courses as c', 'c.id', 'i.course_id')
    .select(['i.role', 'c.status', 'c.included_in_premium'])
    .where('i.user_id', '=', userId)
    .execute()
  const onSale = taught.filter((course) => course.role === 'owner' && course.status === 'published')
  if (onSale.length > 0) consequences.push(DELETION_CONSEQUENCES.offSale(onSale.length))
  if (onSale.some((course) => course.included_in_premium)) consequences.push(DELETION_CONSEQUENCES.premium)
  if (taught.some((course) => course.role === 'co')) consequences.push(DELETION_CONSEQUENCES.coTeaching)
  return consequences
}

export const DELETION_CONSEQUENCES = {
  courses: (count: number) =>
    count === 1
      ? 'You lose the course you hold, with your progress and certificate.'
      : `You lose the ${count} courses you hold, with your progress and certificates.`,
  premiumAccess: (endsAt: Date | null) =>
    endsAt
      ? `Your Premium access, which runs until ${formatDate(endsAt)}, ends with your account. It is not refunded.`
      : 'Your Premium access ends with your account.',
  offSale: (count: number) =>
    count === 1
      ? 'Your course is taken off sale. Learners who hold it keep it.'
      : `Your ${count} courses are taken off sale. Learners who hold them keep them.`,
  premium: 'Minutes Premium members watch this month earn you no share of the Premium pool.',
  coTeaching: 'You leave the courses you co-teach; your percentage goes back to each course’s owner.',
} as const

/** What the security page shows: the scheduled date (if any), what stands in the way, and what the erasure does. */
export async function deletionStatus(db: DB, userId: string) {
  const row = await deletionOf(db, userId)
  const scheduled = row && !row.erased_at ? { requestedAt: row.requested_at, eraseAfter: row.erase_after } : null
  return {
    scheduled,
    blockers: scheduled ? [] : await deletionBlockers(db, userId),
    consequences: await deletionConsequences(db, userId),
  }
}

/** The date the account's erasure is scheduled for, or null (the log-in answer carries it, to offer cancelling). */
export async function scheduledDeletionOf(db: DB, userId: string): Promise<Date | null> {
  const row = await deletionOf(db, userId)
  return row && !row.erased_at ? row.erase_after : null
}

export interface DeletionRequest {
  db: DB
  userId: string
  publicUrl: string
  /** The person's own proof; absent when staff ask for a person who wrote in (then `staff` is set). */
  proof?: ActionProof
  settings?: TwoFactorSettings
  /** False under a school's own domain: the proof is the e-mailed code, not the password (decision 0063). */
  passwordHere?: boolean
  staff?: { id: string; email: string }
  /** The session the person asked from: it stays, their other sessions end (a device they lost cannot cancel). */
  currentSessionId?: string
}

/** Schedules the erasure after the cool-off; other sessions end now. Asking again keeps the first date. */
export async function requestAccountDeletion(request: DeletionRequest) {
  const { db, userId, staff } = request
  if (!staff) {
    if (!request.proof || !request.settings) throw new DomainError('invalid', 'Confirm with your password or a code.')
    await confirmAction(db, userId, request.proof, request.settings, request.passwordHere)
  }
  const blockers = await deletionBlockers(db, userId)
  if (blockers.length > 0) throw new DomainError('precondition', blockers.join(' '))
  return db.transaction().execute(async (trx) => {
    const row = await scheduleDeletion(trx, userId, staff?.id ?? null, clock.now())
    if (request.currentSessionId) await invalidateUserSessions(trx, userId, request.currentSessionId)
    if (row.created) {
      if (staff) await record(trx, staff, 'privacy.deletion_requested', { type: 'user', id: userId })
      await mailPerson(trx, userId, DELETION_MAIL_KINDS.requested, 'Your SkillForge account will be deleted', [
        `You asked us to delete your SkillForge account. It will be deleted on ${formatDate(row.erase_after)}, ${ACCOUNT_DELETION_COOL_OFF_DAYS} days from now.`,
        '',
        `Changed your mind? Sign in and choose Cancel deletion: ${request.publicUrl}/account/security`,
        '',
        'After that date your profile, sign-in methods, learning progress and files are erased; your reviews and questions stay as "Deleted user". Invoices are kept as the law requires.',
      ])
    }
    return { eraseAfter: row.erase_after }
  })
}

/** Cancels a scheduled deletion (the person, signed in; or staff, audited). */
export async function cancelAccountDeletion(db: DB, userId: string, staff?: { id: string; email: string }) {
  return db.transaction().execute(async (trx) => {
    if (!(await cancelDeletion(trx, userId))) throw new DomainError('not_found', 'No deletion is scheduled.')
    if (staff) await record(trx, staff, 'privacy.deletion_cancelled', { type: 'user', id: userId })
    await mailPerson(trx, userId, DELETION_MAIL_KINDS.cancelled, 'Your SkillForge account will not be deleted', [
      'The deletion of your SkillForge account was cancelled. Nothing changes: your account stays as it was.',
    ])
    return { ok: true }
  })
}

export async function mailPerson(db: DB, userId: string, kind: string, subject: string, lines: string[]) {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()
  await enqueueMail(db, { kind, to: user.email, subject, text: `${lines.join('\n')}\n` })
}
