// "Delete my account" (issue 28; UK GDPR / GDPR Art. 17). The person confirms with a fresh proof (password, app code
// or an e-mailed code: auth/confirm-action.ts); a 14-day cool-off follows (a mail now and the day before; signing in
// offers to cancel); then the deletion job ('privacy.account-deletions') erases the account in one transaction per
// person. What is kept, and why, is decision 0053: invoices and credit notes unchanged, orders' totals without the
// billing details, the earnings ledger and the audit log keyed to the account id only. Rerunning it changes nothing.
import { formatDate } from '../../src-shared/dates.ts'
import { ACCOUNT_DELETION_COOL_OFF_DAYS } from '../../src-shared/retention.ts'
import { record } from '../audit/repository.ts'
import { type ActionProof, confirmAction } from '../auth/confirm-action.ts'
import type { TwoFactorSettings } from '../auth/two-factor.ts'
import { anonymiseCreator, endTeamPlaces, forgetInvitesOf } from '../creators/erasure.ts'
import { schoolOfOwner } from '../creators/schools.ts'
import { creatorBalances } from '../earnings/balances.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { Log } from '../kernel/log.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { eraseBillingDetails } from '../orders/erasure.ts'
import type { StripeApi } from '../payments/stripe.ts'
import {
  cancelDeletion,
  claimDueReminders,
  deletionOf,
  dueErasures,
  dueStripeDeletions,
  lockDueDeletion,
  markErased,
  markStripeDeleted,
  scheduleDeletion,
} from '../privacy/deletions.ts'
import type { FileStorage } from '../storage/storage.ts'
import { stripeCustomersOf } from '../subscriptions/repository.ts'
import { forgetInvitationsTo } from '../team/invitations.ts'
import { disableSchoolEndpoints } from '../webhooks/endpoints.ts'
import { retireOwnedCourses } from './course-publishing.ts'

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
  const renewing = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', ['trialing', 'active', 'past_due'])
    .where('ended_at', 'is', null)
    .where('cancel_at_period_end', '=', false)
    .executeTakeFirst()
  if (renewing) blockers.push(DELETION_MESSAGES.membership)
  return blockers
}

/** What the erasure will do to the person's teaching, each a sentence the form shows before they confirm. */
export async function deletionConsequences(db: DB, userId: string): Promise<string[]> {
  const taught = await db
    .selectFrom('course_instructors as i')
    .innerJoin('courses as c', 'c.id', 'i.course_id')
    .select(['i.role', 'c.status', 'c.included_in_premium'])
    .where('i.user_id', '=', userId)
    .execute()
  const onSale = taught.filter((course) => course.role === 'owner' && course.status === 'published')
  const consequences: string[] = []
  if (onSale.length > 0) consequences.push(DELETION_CONSEQUENCES.offSale(onSale.length))
  if (onSale.some((course) => course.included_in_premium)) consequences.push(DELETION_CONSEQUENCES.premium)
  if (taught.some((course) => course.role === 'co')) consequences.push(DELETION_CONSEQUENCES.coTeaching)
  return consequences
}

export const DELETION_CONSEQUENCES = {
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

async function mailPerson(db: DB, userId: string, kind: string, subject: string, lines: string[]) {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()
  await enqueueMail(db, { kind, to: user.email, subject, text: `${lines.join('\n')}\n` })
}

export interface DeletionJobDeps {
  db: DB
  storage: FileStorage
  log: Pick<Log, 'info' | 'error'>
  publicUrl: string
  /** Deletes the person's Stripe customers after the erasure; without it they wait for a run that has it. */
  stripe?: StripeApi | null
}

/** The deletion job: reminders due, then every erasure due; a failed erasure is retried by the next run. */
export async function runAccountDeletions(deps: DeletionJobDeps) {
  const now = clock.now()
  const reminders = await deps.db.transaction().execute(async (trx) => {
    const due = await claimDueReminders(trx, now)
    for (const row of due) {
      await mailPerson(trx, row.user_id, DELETION_MAIL_KINDS.reminder, 'Your SkillForge account is deleted tomorrow', [
        `As you asked, your SkillForge account will be deleted on ${formatDate(row.erase_after)}.`,
        '',
        `To keep it, sign in and choose Cancel deletion before then: ${deps.publicUrl}/account/security`,
      ])
    }
    return due.length
  })
  let erased = 0
  let failed = 0
  for (const userId of await dueErasures(deps.db, now)) {
    try {
      if (await eraseAccount(deps, userId, now)) erased += 1
    } catch (error) {
      failed += 1
      deps.log.error({ err: error, userId }, 'account erasure failed; the next run retries it')
    }
  }
  const stripe = await deleteStripeCustomers(deps)
  return { reminders, erased, failed, stripeCustomersDeleted: stripe.deleted, stripeFailed: stripe.failed }
}

/**
 * Deletes the Stripe customers of every erased person not done yet (decision 0066): after the erasure has
 * committed, so a Stripe outage never holds the erasure back. A customer Stripe no longer knows counts as deleted;
 * a failing call leaves the person for the next run (each call is safe to repeat). A person without a Stripe
 * customer is marked done at once.
 */
export async function deleteStripeCustomers(deps: Pick<DeletionJobDeps, 'db' | 'log' | 'stripe'>, now = clock.now()) {
  let deleted = 0
  let failed = 0
  for (const userId of await dueStripeDeletions(deps.db)) {
    const customers = await stripeCustomersOf(deps.db, userId)
    if (customers.length > 0 && !deps.stripe) continue
    try {
      for (const customerId of customers) {
        if ((await deps.stripe!.deleteCustomer(customerId)) === 'deleted') deleted += 1
      }
      await markStripeDeleted(deps.db, userId, now)
    } catch (error) {
      failed += 1
      // The error names no secret: the SDK's message and Stripe's request id.
      deps.log.error({ err: error, userId }, 'deleting the Stripe customer failed; the next run retries it')
    }
  }
  return { deleted, failed }
}

/**
 * Erases one person whose cool-off has ended, in one transaction (their deletion row locked, so two workers cannot
 * both run it); false when it is not due or was already done. Files are removed after the commit (a missing file is
 * no error, so a rerun is safe).
 */
export async function eraseAccount(deps: Pick<DeletionJobDeps, 'db' | 'storage'>, userId: string, now = clock.now()) {
  const files = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockDueDeletion(trx, userId, now))) return null
    // Still blocked (earnings credited during the cool-off): wait; the next run tries again.
    if ((await deletionBlockers(trx, userId)).length > 0) return null
    const person = await trx
      .selectFrom('users')
      .select(['email', 'avatar_url'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const keys = await eraseRows(trx, userId, person.email, now)
    await trx
      .updateTable('users')
      .set({
        email: erasedEmail(userId),
        email_verified: false,
        password_hash: null,
        first_name: DELETED_USER_NAME,
        last_name: '',
        avatar_url: null,
        role: 'customer',
        updated_at: now,
      })
      .where('id', '=', userId)
      .execute()
    await markErased(trx, userId, now)
    // A last, nameless notice to the address that asked (then purged with other sent mail after 90 days).
    await enqueueMail(trx, {
      kind: DELETION_MAIL_KINDS.erased,
      to: person.email,
      subject: 'Your SkillForge account has been deleted',
      text: 'Your SkillForge account has been deleted, as you asked. Invoices issued to you are kept as the law requires.\n',
    })
    return { keys, avatarUrl: person.avatar_url }
  })
  if (!files) return false
  for (const key of files.keys) await deps.storage.remove(key)
  const avatarKey = files.avatarUrl ? deps.storage.keyFromUrl(files.avatarUrl) : null
  if (avatarKey) await deps.storage.remove(avatarKey)
  return true
}

/** Deletes or anonymises every row about the person; returns the storage keys of their files to remove. */
async function eraseRows(trx: DB, userId: string, email: string, now: Date): Promise<string[]> {
  // Signing in, in every form.
  for (const table of [
    'school_sso_pending_links',
    'sessions',
    'pending_logins',
    'user_totp',
    'user_recovery_codes',
    'known_devices',
    'auth_tokens',
    'oauth_accounts',
    'user_passkeys',
    'webauthn_challenges',
    'school_sso_links',
  ] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute()
  }
  // Shopping and learning that is theirs alone.
  for (const table of [
    'cart_items',
    'coupon_applications',
    'lesson_progress',
    'course_completions',
    'certificates',
    'quiz_attempts',
    'drip_unlock_mails',
    'lesson_question_votes',
    'question_digest_optouts',
    'question_digests',
  ] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute()
  }
  const exports = await trx.deleteFrom('data_exports').where('user_id', '=', userId).returning('storage_key').execute()
  // Files they uploaded to their service orders (briefs and messages); the orders' briefs emptied.
  const serviceFiles = await trx
    .deleteFrom('service_order_files')
    .where('uploaded_by', '=', userId)
    .returning('storage_key')
    .execute()
  await trx.updateTable('service_orders').set({ brief: '{}' }).where('user_id', '=', userId).execute()
  // Orders keep their totals for the accounts; the billing details live on in the invoices as issued.
  await eraseBillingDetails(trx, userId)
  // A creator's public profile stays for their courses' buyers, anonymised and run by the house; the courses leave
  // the shop, since nobody can be paid for a sale any more.
  const attachmentKeys = await anonymiseCreator(trx, userId)
  await retireOwnedCourses(trx, userId, now)
  // Their places on schools' and courses' teams, and the API keys they or their school hold: none outlives the account.
  await endTeamPlaces(trx, userId)
  // The invitations they joined the staff, a school's team or a course with (their name and address).
  await forgetInvitationsTo(trx, email)
  await forgetInvitesOf(trx, userId, email)
  // Nor do their school's webhooks: no event about it goes on to the endpoints they set up.
  const school = await schoolOfOwner(trx, userId)
  if (school) await disableSchoolEndpoints(trx, school.id, 'The school owner’s account was deleted', clock.now())
  // Mail to them, and what they sent through the contact form with this address or signed in.
  await trx.deleteFrom('mail_outbox').where('to_address', '=', email).execute()
  await trx
    .deleteFrom('contact_messages')
    .where((eb) => eb.or([eb('email', '=', email), eb('user_id', '=', userId)]))
    .execute()
  // Audit records keep the account id only.
  await trx
    .updateTable('audit_log')
    .set({ actor_email: `user:${userId}` })
    .where('actor_id', '=', userId)
    .execute()
  return [
    ...exports.flatMap((row) => (row.storage_key ? [row.storage_key] : [])),
    ...attachmentKeys,
    ...serviceFiles.map((row) => row.storage_key),
  ]
}
