// The deletion job (issue 28, decision 0053): each day's reminders, then the erasure of every account whose cool-off
// has ended, one transaction a person, then their Stripe customers (decision 0066). What the erasure deletes,
// anonymises or keeps, table by table, is eraseRows below; decision 0107 adds what later features store.
import { sql } from 'kysely'
import { formatDate } from '../../src-shared/dates.ts'
import { forgetAddressInAudit } from '../audit/repository.ts'
import { renameInstructorOnCourses } from '../catalog/instructors.ts'
import { forgetSearchWordsOf } from '../catalog/search-term.ts'
import { anonymiseCreator, endTeamPlaces, FORMER_INSTRUCTOR_NAME, forgetInvitesOf } from '../creators/erasure.ts'
import { schoolOfOwner } from '../creators/schools.ts'
import { releaseUnusedUploadsOf } from '../creators/uploads.ts'
import { deleteMemberFiles } from '../instructor-messages/files.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import type { Log } from '../kernel/log.ts'
import { forgetChatsOf } from '../live-chat/conversations.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { eraseBillingDetails } from '../orders/erasure.ts'
import type { StripeApi } from '../payments/stripe.ts'
import {
  claimDueReminders,
  dueErasures,
  dueStripeDeletions,
  lockDueDeletion,
  lockForErasure,
  markErased,
  markStripeDeleted,
} from '../privacy/deletions.ts'
import { forgetRedemptionMailbox } from '../promotions/coupons.ts'
import { forgetClaimedGiftAddresses } from '../promotions/gifts.ts'
import { releaseAssignments } from '../service-orders/staff.ts'
import type { FileStorage } from '../storage/storage.ts'
import { stripeCustomersOf } from '../subscriptions/repository.ts'
import { forgetInvitationsTo } from '../team/invitations.ts'
import { normaliseEmail } from '../users/email.ts'
import { disableSchoolEndpoints } from '../webhooks/endpoints.ts'
import {
  DELETED_USER_NAME,
  DELETION_MAIL_KINDS,
  deletionBlockers,
  erasedEmail,
  mailPerson,
} from './account-deletion.ts'
import { retireOwnedCourses } from './course-publishing.ts'
import { cancelSessionsHostedBy } from './live-sessions.ts'

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
export async function eraseAccount(
  deps: Pick<DeletionJobDeps, 'db' | 'storage' | 'publicUrl' | 'log'>,
  userId: string,
  now = clock.now(),
) {
  const files = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockDueDeletion(trx, userId, now))) return null
    // Sales crediting them finish first (their earnings then block the erasure); later ones find them erased.
    await lockForErasure(trx, userId)
    // Still blocked (earnings credited during the cool-off): wait; the next run tries again.
    if ((await deletionBlockers(trx, userId)).length > 0) return null
    const person = await trx
      .selectFrom('users')
      .select(['email', 'avatar_url'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const erased = await eraseRows(trx, userId, person.email, now)
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
        suspended_at: null,
        suspended_by: null,
        suspension_reason: null,
        updated_at: now,
      })
      .where('id', '=', userId)
      .execute()
    // The live sessions they were to host are called off: after the rename, so the cancellations name no host.
    await cancelSessionsHostedBy(trx, userId, deps.publicUrl)
    await markErased(trx, userId, now)
    // A last, nameless notice to the address that asked (then purged with other sent mail after 90 days).
    await enqueueMail(trx, {
      kind: DELETION_MAIL_KINDS.erased,
      to: person.email,
      subject: 'Your SkillForge account has been deleted',
      text: 'Your SkillForge account has been deleted, as you asked. Invoices issued to you are kept as the law requires.\n',
    })
    return { keys: erased.keys, imageUrls: [person.avatar_url, ...erased.imageUrls] }
  })
  if (!files) return false
  const imageKeys = files.imageUrls.map((url) => (url ? deps.storage.keyFromUrl(url) : null))
  await removeErasedFiles(deps, userId, [...files.keys, ...imageKeys.filter((key) => key !== null)])
  return true
}

/**
 * Removes an erased person's files one by one. The erasure has committed, so no rerun would find them again: a file
 * storage fails to remove is logged and left to the daily storage sweep (no row points at it any more), and the
 * others still go.
 */
async function removeErasedFiles(deps: Pick<DeletionJobDeps, 'storage' | 'log'>, userId: string, keys: string[]) {
  for (const key of keys) {
    try {
      await deps.storage.remove(key)
    } catch (error) {
      deps.log.error(
        { err: error, userId, key },
        'an erased person’s file was not removed; the storage sweep removes it',
      )
    }
  }
}

/**
 * Deletes or anonymises every row about the person; returns the storage keys of their files and the URLs of their
 * profile photos to remove after commit.
 */
async function eraseRows(trx: DB, userId: string, email: string, now: Date) {
  const pseudonym = erasedEmail(userId)
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
    'mail_unsubscribe_links',
    'course_news_mutes',
    'customer_notes',
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
  // Their conversations with instructors stay under the pseudonym; the files they attached there go.
  const messageFiles = await deleteMemberFiles(trx, userId)
  // Their live chats with the support team go with the account (decision 0099).
  await forgetChatsOf(trx, userId)
  // Orders keep their totals for the accounts; the billing details live on in the invoices as issued. A coupon keeps
  // its count of uses, not their mailbox; a gift they claimed, not their address (decision 0107).
  await eraseBillingDetails(trx, userId)
  await forgetRedemptionMailbox(trx, userId, pseudonym)
  await forgetClaimedGiftAddresses(trx, userId, pseudonym)
  // A creator's public profile stays for their courses' buyers, anonymised and run by the house (its name off the
  // courses' cards and the search words too); the courses leave the shop, since nobody can be paid for a sale any
  // more; videos no lesson uses go.
  const creator = await anonymiseCreator(trx, userId)
  for (const profile of creator.formerProfiles) {
    await renameInstructorOnCourses(trx, profile.id, FORMER_INSTRUCTOR_NAME)
    await forgetSearchWordsOf(trx, profile.formerName)
  }
  await retireOwnedCourses(trx, userId, now)
  const videos = await releaseUnusedUploadsOf(trx, userId)
  // Their places on schools' and courses' teams, and the API keys they or their school hold: none outlives the account.
  await endTeamPlaces(trx, userId)
  // The invitations they joined the staff, a school's team or a course with (their name and address).
  await forgetInvitationsTo(trx, email)
  await forgetInvitesOf(trx, userId, email)
  // Nor do their school's webhooks: no event about it goes on to the endpoints they set up.
  const school = await schoolOfOwner(trx, userId)
  if (school) await disableSchoolEndpoints(trx, school.id, 'The school owner’s account was deleted', clock.now())
  // A staff member's open service orders wait for another (their buyers' messages would go nowhere).
  await releaseAssignments(trx, { id: userId, email: `user:${userId}` }, userId)
  // Mail to them, and what they sent through the contact form with this address (in any case) or signed in.
  const sameAddress = (column: 'to_address' | 'email') =>
    sql<boolean>`lower(${sql.ref(column)}) = ${normaliseEmail(email)}`
  await trx.deleteFrom('mail_outbox').where(sameAddress('to_address')).execute()
  await trx
    .deleteFrom('contact_messages')
    .where((eb) => eb.or([sameAddress('email'), eb('user_id', '=', userId)]))
    .execute()
  // Audit records keep the account id only: as the actor, and wherever an entry's state named their address.
  await trx
    .updateTable('audit_log')
    .set({ actor_email: `user:${userId}` })
    .where('actor_id', '=', userId)
    .execute()
  await forgetAddressInAudit(trx, email, `user:${userId}`)
  return {
    keys: [
      ...exports.flatMap((row) => (row.storage_key ? [row.storage_key] : [])),
      ...creator.attachmentKeys,
      ...serviceFiles.map((row) => row.storage_key),
      ...messageFiles,
      ...videos,
    ],
    imageUrls: creator.formerProfiles.map((profile) => profile.formerImageUrl),
  }
}
