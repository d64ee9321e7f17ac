// "Download my data" (issue 28; UK GDPR / GDPR Art. 15 and 20): a person (or staff for them, audited) asks; the
// export job (jobs/registry.ts 'privacy.exports', every minute) gathers everything we hold about them into one ZIP —
// machine-readable JSON, their invoices and credit notes as the PDFs we issued, and a README — stores it privately,
// and e-mails them; the download route hands it only to them, for 7 days. Secrets (password hash, second-factor
// keys, session and token hashes) are never exported.
import { strToU8, zipSync } from 'fflate'
import type { AuditAction } from '../../src-shared/audit-actions.ts'
import { fullName } from '../../src-shared/names.ts'
import { isStaff, type Role } from '../../src-shared/roles.ts'
import { auditEntriesAboutAccount, record } from '../audit/repository.ts'
import { notesAbout } from '../contact/customer-notes.ts'
import { canOnCourse } from '../creators/school-access.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { Log } from '../kernel/log.ts'
import { chatsOf } from '../live-chat/conversations.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { renderDocumentPdf } from '../orders/document-pdf.ts'
import { readDocument } from '../orders/documents.ts'
import {
  claimPendingExports,
  EXPORT_MAX_ATTEMPTS,
  exportsOf,
  exportsPastExpiry,
  markExportExpired,
  markExportFailed,
  markExportReady,
  readyExportOf,
  requestExport,
} from '../privacy/exports.ts'
import { UPLOAD_PREFIXES } from '../storage/keys.ts'
import type { FileStorage } from '../storage/storage.ts'
import { mutedCourseIds } from '../users/course-news.ts'

export interface ExportDeps {
  db: DB
  storage: FileStorage
  log: Pick<Log, 'info' | 'error'>
  /** The origin of the link in the "your data is ready" e-mail. */
  publicUrl: string
}

const README = `Your SkillForge data
====================

This archive holds everything SkillForge keeps about your account, as of the date it was made.

profile.json            your account: name, e-mail address, role, when you joined, whether your courses' news
                        comes by e-mail (course_update_mails) and the courses whose news you stopped
                        (course_news_stopped), your sessions (device,
                        browser, approximate network, last active), sign-in methods, the schools whose
                        single sign-on signs you in, and passkeys (not their secrets)
orders.json             your orders with their lines, payments, refunds, refund requests, coupons and the gifts
                        in them (the recipient's address and your message)
invoices/*.pdf          every invoice issued to you, exactly as issued
credit-notes/*.pdf      every credit note issued to you, exactly as issued
learning.json           your lesson progress, completed courses, certificates, course access, quiz attempts, the
                        minutes you watched as a Premium member and the posts you reported
reviews.json            the course reviews you wrote
service-orders.json     your service orders with their briefs, messages, delivery records and the files you sent
creator.json            if you teach or applied to: your applications, creator and instructor profiles, courses,
                        coupons and bundles, earnings ledger entries, payouts and payout account, uploaded videos,
                        the live sessions you host and the school teams you are on
contact-messages.json   messages you sent through the contact form with this e-mail address, and our answers
memberships.json        your memberships (plan, billing cycle, status, renewal and cancellation)
membership-payments.json  every payment of a membership or a monthly service, with its period and tax
messages.json           your conversations with instructors (every message in them), the replies you wrote, the
                        files you attached, blocks and the conversations you reported
gifts-received.json     the gifts you received: what, who gave it (their name as the gift e-mail gave it), their
                        message, when you claimed them
live-chats.json         your live chats with our support team, every message in them
questions.json          the questions and answers you wrote under lessons, the answers others gave to your
                        questions (each answerer shown as Instructor, Staff or Learner), and the questions you
                        upvoted
live-sessions.json      the live sessions you registered for and when you joined them
staff-notes.json        the notes our support team wrote about you on their customer page, and when, by "Staff"
staff-actions.json      what our team did about your account and when (looked it up on the staff customer page,
                        asked for an export or a deletion for you, changed your staff role…), by "Staff";
                        your joining the staff team from an invitation, by "You"

Dates are ISO 8601 (UTC). Amounts are in minor units (cents or pence) with their currency. Each course id has the
course's title beside it (course_title). Other people appear by their part only: a member of our team who changed,
hid or answered something is "Staff", an instructor or a school (one that enrolled you, say) "Instructor", another
learner "Learner", you are "You"; their names, addresses and account ids are not yours to receive.
Passwords, second-factor keys and sign-in tokens are never exported: we keep only their hashes.
`

export const EXPORT_READY_SUBJECT = 'Your SkillForge data is ready to download'

/** The audit log's actions about an account, as the person reads them in staff-actions.json. */
const STAFF_ACTION_WORDS: Partial<Record<AuditAction, string>> = {
  'customer.viewed':
    'Looked up your account on the staff customer page (account, plan, orders, courses, service orders, messages)',
  'customer.suspended': 'Suspended your account',
  'customer.unsuspended': 'Lifted the suspension of your account',
  'customer.signed_out': 'Signed your account out on every device, at your request',
  'customer.email_change_started': 'Sent a link to move your account to another e-mail address, at your request',
  'customer.email_change_cancelled': 'Cancelled the link that would have moved your account to another e-mail address',
  'privacy.export_requested': 'Asked for a copy of your data for you',
  'privacy.deletion_requested': 'Scheduled the deletion of your account at your request',
  'privacy.deletion_cancelled': 'Cancelled the scheduled deletion of your account',
  'support.manager_assigned': 'Assigned you a dedicated success manager',
  'support.manager_removed': 'Ended your dedicated success manager’s assignment',
  'team.role': 'Changed your staff role',
  'team.remove': 'Removed you from the staff team',
  'team.join': 'Joined the staff team from an invitation',
}

/** The person asks for their export (or staff ask for them: audited); a pending one is answered again. */
export async function requestDataExport(db: DB, personId: string, staff?: { id: string; email: string }) {
  const row = await db.transaction().execute(async (trx) => {
    const person = await trx.selectFrom('users').select('id').where('id', '=', personId).executeTakeFirst()
    if (!person) throw new DomainError('not_found', 'User not found')
    const requested = await requestExport(trx, personId, staff?.id ?? null)
    if (staff) await record(trx, staff, 'privacy.export_requested', { type: 'user', id: personId })
    return requested
  })
  return row
}

export function dataExportsOf(db: DB, userId: string) {
  return exportsOf(db, userId)
}

/** The stored ZIP of the person's ready export, or null (not theirs, not ready, expired). */
export async function exportFileOf(db: DB, userId: string, exportId: string) {
  const row = await readyExportOf(db, userId, exportId, clock.now())
  return row?.storage_key ? { key: row.storage_key, createdAt: row.created_at } : null
}

/**
 * Columns that mean nothing to the person, left out of every file wherever a table's row is exported whole: the
 * PostgreSQL transaction ids that order the school API's sync lists (decision 0094).
 */
export const INTERNAL_COLUMNS: ReadonlySet<string> = new Set(['created_xid', 'paid_xid'])

/**
 * Columns naming the account of whoever changed the row: a staff member who moved an order, granted access, hid a
 * review, answered a contact message, delivered a service order, approved a creator; or an instructor (a school that
 * enrolled the person, a course's team dismissing a report). The export says "Staff" or "Instructor" by the account's
 * role (or "You" where it was the person), never another person's account id.
 */
export const STAFF_COLUMNS: ReadonlySet<string> = new Set([
  'status_changed_by',
  'granted_by',
  'hidden_by',
  'answered_by',
  'delivered_by',
  'approved_by',
  'assignee_id',
  'decided_by',
  'dismissed_by',
])

function jsonFor(userId: string, titles: ReadonlyMap<string, string>, actors: ReadonlyMap<string, string>) {
  return (value: unknown) =>
    strToU8(
      `${JSON.stringify(
        withCourseTitles(value, titles),
        (key, field) => {
          if (INTERNAL_COLUMNS.has(key)) return undefined
          if (STAFF_COLUMNS.has(key) && typeof field === 'string') {
            return field === userId ? 'You' : (actors.get(field) ?? 'Staff')
          }
          return field
        },
        2,
      )}\n`,
    )
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value))

/** Every value the files hold under one of `keys` (`course_id`, the STAFF_COLUMNS), anywhere in them. */
function idsUnder(keys: ReadonlySet<string>, value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) idsUnder(keys, item, found)
  else if (isRecord(value)) {
    for (const [key, field] of Object.entries(value)) {
      if (keys.has(key) && typeof field === 'string') found.add(field)
      else idsUnder(keys, field, found)
    }
  }
  return found
}

/** How each account named in a STAFF_COLUMNS column shows: "Staff" for a staff role, else "Instructor". */
async function actorParts(db: DB, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('users').select(['id', 'role']).where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [row.id, isStaff(row.role) ? 'Staff' : 'Instructor']))
}

/** The value with each `course_id` followed by the course's title (`course_title`), so a reader knows which it is. */
function withCourseTitles(value: unknown, titles: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withCourseTitles(item, titles))
  if (!isRecord(value)) return value
  const entries: [string, unknown][] = []
  for (const [key, field] of Object.entries(value)) {
    entries.push([key, withCourseTitles(field, titles)])
    if (key === 'course_id' && typeof field === 'string' && !('course_title' in value)) {
      entries.push(['course_title', titles.get(field) ?? null])
    }
  }
  return Object.fromEntries(entries)
}

/**
 * How another person shows in the export, by their part on the course only: its instructor (its team, or a school
 * member who answers for it), staff, or a learner; the person themselves is "You".
 */
async function partOnCourse(
  db: DB,
  userId: string,
  other: { id: string; role: Role },
  courseId: string,
): Promise<'You' | 'Instructor' | 'Staff' | 'Learner'> {
  if (other.id === userId) return 'You'
  if (await canOnCourse(db, other.id, courseId, 'questions.answer')) return 'Instructor'
  return isStaff(other.role) ? 'Staff' : 'Learner'
}

/** Everything we hold about the person, as the files of the archive. */
export async function collectPersonalData(db: DB, userId: string): Promise<Record<string, Uint8Array>> {
  const person = await db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'email_verified',
      'first_name',
      'last_name',
      'avatar_url',
      'role',
      'course_update_mails',
      'suspended_at',
      'suspension_reason',
      'created_at',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const [sessions, oauth, orders, items, refunds, invoices, creditNotes] = await Promise.all([
    db
      .selectFrom('sessions')
      .select(['created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip_network'])
      .where('user_id', '=', userId)
      .execute(),
    db.selectFrom('oauth_accounts').select(['provider', 'created_at']).where('user_id', '=', userId).execute(),
    db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
    db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .selectAll('i')
      .where('o.user_id', '=', userId)
      .execute(),
    db
      .selectFrom('refunds as r')
      .innerJoin('orders as o', 'o.id', 'r.order_id')
      .select(['r.id', 'r.order_id', 'r.amount_minor', 'r.method', 'r.reason', 'r.created_at'])
      .where('o.user_id', '=', userId)
      .execute(),
    db.selectFrom('invoices').select(['id', 'number']).where('user_id', '=', userId).execute(),
    db.selectFrom('credit_notes').select(['id', 'number']).where('user_id', '=', userId).execute(),
  ])
  const [progress, completions, certificates, grants, reviews, serviceOrders] = await Promise.all([
    db.selectFrom('lesson_progress').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('course_completions').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('certificates').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('access_grants').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('course_reviews').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('service_orders').selectAll().where('user_id', '=', userId).execute(),
  ])
  const serviceOrderIds = serviceOrders.map((order) => order.id)
  const [messages, deliveries, creator, ownedCourses, ledger, contact] = await Promise.all([
    serviceOrderIds.length
      ? db
          .selectFrom('service_order_messages')
          .selectAll()
          .where('service_order_id', 'in', serviceOrderIds)
          .where('internal', '=', false) // staff's internal notes are not the buyer's
          .execute()
      : [],
    serviceOrderIds.length
      ? db.selectFrom('service_order_deliveries').selectAll().where('service_order_id', 'in', serviceOrderIds).execute()
      : [],
    db.selectFrom('creators').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('course_instructors as ci')
      .innerJoin('courses as c', 'c.id', 'ci.course_id')
      .select(['c.id', 'c.title', 'c.status', 'c.price_minor', 'c.currency', 'ci.role', 'ci.share_basis_points'])
      .where('ci.user_id', '=', userId)
      .execute(),
    db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .select(['t.kind', 't.source', 't.created_at', 'e.account', 'e.currency', 'e.amount_minor'])
      .where('e.creator_id', '=', userId)
      .orderBy('t.created_at')
      .execute(),
    db
      .selectFrom('contact_messages')
      .selectAll()
      .where((eb) => eb.or([eb('email', '=', person.email), eb('user_id', '=', userId)]))
      .execute(),
  ])
  const [memberships, quizAttempts, threads, threadMessages, questions, answers, votes, registrations, attendance] =
    await Promise.all([
      db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),
      db.selectFrom('quiz_attempts').selectAll().where('user_id', '=', userId).orderBy('started_at').execute(),
      db
        .selectFrom('course_message_threads')
        .select(['id', 'course_id', 'subject', 'closed_at', 'created_at'])
        .where('member_id', '=', userId)
        .execute(),
      // Every message of the person's own threads (the instructors' answers are part of their conversation), and
      // the messages they wrote as an instructor.
      db
        .selectFrom('course_messages as m')
        .innerJoin('course_message_threads as t', 't.id', 'm.thread_id')
        .select(['m.id', 'm.thread_id', 't.course_id', 'm.from_instructor', 'm.body', 'm.created_at', 't.member_id'])
        .where((eb) => eb.or([eb('t.member_id', '=', userId), eb('m.author_id', '=', userId)]))
        .orderBy('m.created_at')
        .execute(),
      db
        .selectFrom('lesson_questions')
        .select(['id', 'course_id', 'lesson_id', 'title', 'body_markdown', 'answered_at', 'hidden_at', 'created_at'])
        .where('author_id', '=', userId)
        .execute(),
      db
        .selectFrom('lesson_answers as a')
        .innerJoin('lesson_questions as q', 'q.id', 'a.question_id')
        .select([
          'a.id',
          'a.question_id',
          'q.course_id',
          'q.lesson_id',
          'a.body_markdown',
          'a.hidden_at',
          'a.created_at',
        ])
        .where('a.author_id', '=', userId)
        .execute(),
      db.selectFrom('lesson_question_votes').selectAll().where('user_id', '=', userId).execute(),
      db
        .selectFrom('live_registrations as r')
        .innerJoin('live_sessions as s', 's.id', 'r.session_id')
        .select(['r.session_id', 's.title', 's.starts_at', 'r.status', 'r.requested_at', 'r.cancelled_at'])
        .where('r.user_id', '=', userId)
        .execute(),
      db.selectFrom('live_attendance').selectAll().where('user_id', '=', userId).execute(),
    ])

  // The schools whose identity provider signs the person in: the school, its issuer and the person's id there.
  const schoolSignIns = await db
    .selectFrom('school_sso_links as l')
    .innerJoin('schools as s', 's.id', 'l.school_id')
    .select(['s.name as school', 'l.issuer', 'l.subject', 'l.created_at', 'l.last_used_at'])
    .where('l.user_id', '=', userId)
    .execute()
  const [refundRequests, giftsBought, passkeys, applications, payouts, teams] = await Promise.all([
    db
      .selectFrom('refund_requests')
      .select(['id', 'order_id', 'order_item_id', 'reason', 'status', 'decision_reason', 'decided_at', 'created_at'])
      .where('user_id', '=', userId)
      .execute(),
    // The gifts they bought: the recipient's address and the message are what they gave at checkout.
    db
      .selectFrom('gifts')
      .select([
        'id',
        'order_id',
        'order_item_id',
        'recipient_email',
        'message',
        'send_at',
        'plan_months',
        'paid_at',
        'mailed_at',
        'claimed_at',
        'created_at',
      ])
      .where('buyer_id', '=', userId)
      .execute(),
    db
      .selectFrom('user_passkeys')
      .select(['name', 'transports', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .execute(),
    db
      .selectFrom('creator_applications')
      .select([
        'id',
        'headline',
        'category_ids',
        'proposal',
        'links',
        'attachment',
        'status',
        'decision_reason',
        'decided_at',
        'created_at',
      ])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('creator_payouts')
      .select(['id', 'month', 'currency', 'amount_minor', 'status', 'paid_at', 'created_at'])
      .where('creator_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('school_members as m')
      .innerJoin('schools as s', 's.id', 'm.school_id')
      .select(['s.name as school', 'm.role', 'm.created_at'])
      .where('m.user_id', '=', userId)
      .execute(),
  ])
  // What later features keep about them: each file named, never its storage key.
  const [instructorProfiles, renewalInvoices, serviceFiles, messageFiles, blocks, reports, giftsReceived] =
    await Promise.all([
      db
        .selectFrom('instructors')
        .select(['name', 'title', 'bio', 'links', 'image_url', 'slug', 'created_at'])
        .where('user_id', '=', userId)
        .execute(),
      db
        .selectFrom('subscription_invoices')
        .select([
          'id',
          'subscription_id',
          'service_order_id',
          'amount_minor',
          'tax_minor',
          'currency',
          'period_start',
          'period_end',
          'billing_reason',
          'paid_at',
        ])
        .where('user_id', '=', userId)
        .orderBy('paid_at')
        .execute(),
      db
        .selectFrom('service_order_files')
        .select(['service_order_id', 'file_name', 'content_type', 'size_bytes', 'created_at'])
        .where('uploaded_by', '=', userId)
        .execute(),
      db
        .selectFrom('course_message_files')
        .select(['thread_id', 'message_id', 'file_name', 'content_type', 'size_bytes', 'created_at'])
        .where('uploaded_by', '=', userId)
        .execute(),
      // An instructor's block of them (with the reason they gave), and the blocks they made as an instructor.
      db
        .selectFrom('course_message_blocks as b')
        .innerJoin('users as by', 'by.id', 'b.blocked_by')
        .select(['b.course_id', 'b.member_id', 'b.blocked_by', 'by.role as blocker_role', 'b.reason', 'b.created_at'])
        .where((eb) => eb.or([eb('b.member_id', '=', userId), eb('b.blocked_by', '=', userId)]))
        .execute(),
      Promise.all([
        db
          .selectFrom('course_message_reports')
          .select(['thread_id', 'reason', 'created_at'])
          .where('reporter_id', '=', userId)
          .execute(),
        db
          .selectFrom('lesson_post_reports')
          .select(['course_id', 'question_id', 'answer_id', 'reason', 'dismissed_at', 'created_at'])
          .where('reporter_id', '=', userId)
          .execute(),
      ]),
      // Who gave it, by the name the gift's e-mail gives (the giver's name, else "Someone"); not their address.
      db
        .selectFrom('gifts as g')
        .innerJoin('order_items as i', 'i.id', 'g.order_item_id')
        .innerJoin('users as giver', 'giver.id', 'g.buyer_id')
        .select([
          'g.id',
          'i.title',
          'i.course_id',
          'giver.first_name as giver_first_name',
          'giver.last_name as giver_last_name',
          'g.message',
          'g.plan_months',
          'g.send_at',
          'g.claimed_at',
        ])
        .where('g.claimed_by', '=', userId)
        .execute(),
    ])
  const [answersToThem, couponsMade, bundlesMade, bundleCourses] = await Promise.all([
    // The answers to their questions (what they read under them: not the ones a moderator hid), each answerer by part.
    db
      .selectFrom('lesson_answers as a')
      .innerJoin('lesson_questions as q', 'q.id', 'a.question_id')
      .innerJoin('users as u', 'u.id', 'a.author_id')
      .select(['a.question_id', 'q.course_id', 'a.author_id', 'u.role', 'a.body_markdown', 'a.created_at'])
      .where('q.author_id', '=', userId)
      .where((eb) => eb.or([eb('a.hidden_at', 'is', null), eb('a.author_id', '=', userId)]))
      .orderBy('a.created_at')
      .execute(),
    // A creator's codes for their courses (made by them or by staff for them) and their bundles.
    db
      .selectFrom('coupons')
      .select([
        'code',
        'kind',
        'percent_off',
        'amounts_off',
        'min_amounts',
        'applies_to',
        'course_ids',
        'starts_at',
        'ends_at',
        'max_uses',
        'max_uses_per_customer',
        'first_purchase_only',
        'active',
        'created_by',
        'created_at',
      ])
      .where('creator_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('bundles')
      .select(['id', 'slug', 'title', 'description', 'currency', 'price_minor', 'published', 'created_at'])
      .where('owner_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('bundle_courses as bc')
      .innerJoin('bundles as b', 'b.id', 'bc.bundle_id')
      .select(['bc.bundle_id', 'bc.course_id', 'bc.position'])
      .where('b.owner_id', '=', userId)
      .orderBy('bc.position')
      .execute(),
  ])
  const answerers = new Map<string, Awaited<ReturnType<typeof partOnCourse>>>()
  for (const answer of answersToThem) {
    const key = `${answer.author_id}:${answer.course_id}`
    if (!answerers.has(key)) {
      answerers.set(key, await partOnCourse(db, userId, { id: answer.author_id, role: answer.role }, answer.course_id))
    }
  }
  // Blocks: who blocked them, by part (one who has since left the course's team blocked as its instructor); the
  // learner they blocked as an instructor is not named.
  const blocksOut: Record<string, unknown>[] = []
  for (const block of blocks) {
    const by = await partOnCourse(db, userId, { id: block.blocked_by, role: block.blocker_role }, block.course_id)
    blocksOut.push({
      course_id: block.course_id,
      blocked: block.member_id === userId ? 'You' : 'Learner',
      blocked_by: by === 'Learner' ? 'Instructor' : by,
      reason: block.reason,
      created_at: block.created_at,
    })
  }
  const [redemptions, watchTime, payoutAccount, uploads, hostedSessions] = await Promise.all([
    db
      .selectFrom('coupon_redemptions as r')
      .innerJoin('coupons as c', 'c.id', 'r.coupon_id')
      .select(['c.code', 'r.order_id', 'r.currency', 'r.discount_minor', 'r.created_at'])
      .where('r.user_id', '=', userId)
      .execute(),
    db
      .selectFrom('premium_watch_time')
      .select(['month', 'course_id', 'seconds'])
      .where('user_id', '=', userId)
      .orderBy('month')
      .execute(),
    db
      .selectFrom('creator_payout_accounts')
      .select([
        'stripe_account_id',
        'charges_enabled',
        'payouts_enabled',
        'details_submitted',
        'requirements_due',
        'created_at',
      ])
      .where('creator_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('creator_uploads')
      .select(['file_name', 'size_bytes', 'status', 'content_type', 'duration_seconds', 'lesson_id', 'created_at'])
      .where('user_id', '=', userId)
      .where('status', '!=', 'released')
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('live_sessions')
      .select(['id', 'course_id', 'title', 'description', 'starts_at', 'duration_minutes', 'time_zone', 'cancelled_at'])
      .where('host_id', '=', userId)
      .orderBy('starts_at')
      .execute(),
  ])
  // Our answers to their messages (the text they were mailed).
  const contactReplies = contact.length
    ? await db
        .selectFrom('contact_replies')
        .select(['message_id', 'body', 'created_at'])
        .where(
          'message_id',
          'in',
          contact.map((message) => message.id),
        )
        .orderBy('created_at')
        .execute()
    : []
  // An application's file is named, not its storage key.
  const applicationsOut = applications.map(({ attachment, ...application }) => ({
    ...application,
    attachment: attachment ? { name: attachment.name, contentType: attachment.contentType } : null,
  }))
  const teaches =
    couponsMade.length ||
    bundlesMade.length ||
    creator ||
    instructorProfiles.length ||
    ownedCourses.length ||
    ledger.length ||
    payouts.length ||
    applications.length ||
    teams.length

  // The JSON files: course titles beside course ids, others' account ids said as "Staff" or "Instructor" (jsonFor).
  const data: Record<string, unknown> = {
    'profile.json': {
      ...person,
      course_news_stopped: await mutedCourseIds(db, userId),
      sessions,
      signInMethods: oauth,
      schoolSignIns,
      passkeys,
    },
    'orders.json': orders.map((order) => ({
      ...order,
      lines: items.filter((item) => item.order_id === order.id),
      refunds: refunds.filter((refund) => refund.order_id === order.id),
      refundRequests: refundRequests.filter((request) => request.order_id === order.id),
      gifts: giftsBought.filter((gift) => gift.order_id === order.id),
      coupons: redemptions.filter((redemption) => redemption.order_id === order.id),
    })),
    'gifts-received.json': giftsReceived.map(({ giver_first_name, giver_last_name, ...gift }) => ({
      ...gift,
      from: fullName(giver_first_name, giver_last_name) || 'Someone',
    })),
    'learning.json': {
      progress,
      completions,
      certificates,
      access: grants,
      quizAttempts,
      premiumWatchTime: watchTime,
      postsReported: reports[1],
    },
    'reviews.json': reviews,
    'service-orders.json': serviceOrders.map((order) => ({
      ...order,
      // Each message by side: theirs, or our team's (never a staff member's account id).
      messages: messages
        .filter((message) => message.service_order_id === order.id)
        .map(({ author_id, ...message }) => ({ ...message, from: author_id === userId ? 'You' : 'Staff' })),
      deliveries: deliveries.filter((delivery) => delivery.service_order_id === order.id),
      filesUploaded: serviceFiles.filter((file) => file.service_order_id === order.id),
    })),
    'creator.json': teaches
      ? {
          profile: creator ?? null,
          instructorProfiles,
          applications: applicationsOut,
          courses: ownedCourses,
          coupons: couponsMade.map(({ course_ids, created_by, ...coupon }) => ({
            ...coupon,
            made_by: created_by === userId ? 'You' : 'Staff',
            courses: course_ids.map((courseId) => ({ course_id: courseId })),
          })),
          bundles: bundlesMade.map((bundle) => ({
            ...bundle,
            courses: bundleCourses
              .filter((course) => course.bundle_id === bundle.id)
              .map(({ course_id, position }) => ({ course_id, position })),
          })),
          earnings: ledger,
          payouts,
          payoutAccount: payoutAccount ?? null,
          videoUploads: uploads,
          liveSessionsHosted: hostedSessions,
          schoolTeams: teams,
        }
      : null,
    'contact-messages.json': contact.map((message) => ({
      ...message,
      replies: contactReplies.filter((reply) => reply.message_id === message.id),
    })),
    'memberships.json': memberships,
    'membership-payments.json': renewalInvoices,
    'messages.json': {
      conversations: threads.map((thread) => ({
        ...thread,
        messages: threadMessages
          .filter((message) => message.thread_id === thread.id)
          .map(({ member_id: _member, ...message }) => message),
      })),
      repliesAsInstructor: threadMessages
        .filter((message) => message.member_id !== userId)
        .map(({ member_id: _member, ...message }) => message),
      filesAttached: messageFiles,
      blocks: blocksOut,
      reported: reports[0],
    },
    'questions.json': {
      questions: questions.map((question) => ({
        ...question,
        answers: answersToThem
          .filter((answer) => answer.question_id === question.id)
          .map((answer) => ({
            by: answerers.get(`${answer.author_id}:${answer.course_id}`) ?? 'Learner',
            body_markdown: answer.body_markdown,
            created_at: answer.created_at,
          })),
      })),
      answers,
      upvoted: votes,
    },
    'live-sessions.json': { registrations, attendance },
    'live-chats.json': await chatsOf(db, userId),
    'staff-notes.json': (await notesAbout(db, userId)).map(({ body, createdAt }) => ({
      note: body,
      by: 'Staff',
      created_at: createdAt,
    })),
    'staff-actions.json': (await auditEntriesAboutAccount(db, userId)).map(({ action, actor_id, created_at }) => ({
      what: STAFF_ACTION_WORDS[action as AuditAction] ?? action,
      action,
      // Joining the team from an invitation is the person's own act; everything else here is our team's.
      by: actor_id === userId ? 'You' : 'Staff',
      created_at,
    })),
  }
  const titles = await courseTitlesOf(db, [...idsUnder(new Set(['course_id']), data)])
  const json = jsonFor(userId, titles, await actorParts(db, [...idsUnder(STAFF_COLUMNS, data)]))
  const files: Record<string, Uint8Array> = { 'README.txt': strToU8(README) }
  for (const [name, value] of Object.entries(data)) files[name] = json(value)
  const viewer = { id: userId, role: 'customer' as const }
  for (const invoice of invoices) {
    files[`invoices/${safeName(invoice.number)}.pdf`] = await renderDocumentPdf(
      await readDocument(db, viewer, 'invoice', invoice.id),
    )
  }
  for (const note of creditNotes) {
    files[`credit-notes/${safeName(note.number)}.pdf`] = await renderDocumentPdf(
      await readDocument(db, viewer, 'credit_note', note.id),
    )
  }
  return files
}

async function courseTitlesOf(db: DB, courseIds: readonly string[]): Promise<Map<string, string>> {
  if (courseIds.length === 0) return new Map()
  const rows = await db.selectFrom('courses').select(['id', 'title']).where('id', 'in', courseIds).execute()
  return new Map(rows.map((row) => [row.id, row.title]))
}

const safeName = (number: string) => number.replace(/[^A-Za-z0-9._-]/g, '_')

/** The export job: builds every pending export, stores it privately and e-mails its owner; expires old ones. */
export async function buildPendingExports(
  deps: ExportDeps,
): Promise<{ built: number; failed: number; expired: number }> {
  const { db, storage, log } = deps
  let built = 0
  let failed = 0
  for (const claimed of await claimPendingExports(db)) {
    try {
      const zip = zipSync(await collectPersonalData(db, claimed.user_id), { level: 6, mtime: clock.now() })
      const key = `${UPLOAD_PREFIXES.dataExports}${claimed.user_id}/${claimed.id}.zip`
      await storage.put(key, Buffer.from(zip), 'application/zip')
      const now = clock.now()
      await db.transaction().execute(async (trx) => {
        await markExportReady(trx, claimed.id, key, zip.byteLength, now)
        const person = await trx
          .selectFrom('users')
          .select(['email', 'first_name'])
          .where('id', '=', claimed.user_id)
          .executeTakeFirstOrThrow()
        await enqueueMail(trx, {
          kind: 'privacy.export_ready',
          to: person.email,
          subject: EXPORT_READY_SUBJECT,
          text: `Hello ${person.first_name || 'there'},\n\nThe copy of your SkillForge data you asked for is ready. Sign in and download it from ${deps.publicUrl}/account/security within 7 days.\n\nIf you did not ask for it, please reply to this e-mail.\n`,
        })
      })
      built++
    } catch (error) {
      log.error({ err: error, exportId: claimed.id, attempt: claimed.attempts }, 'data export failed')
      if (claimed.attempts >= EXPORT_MAX_ATTEMPTS) await markExportFailed(db, claimed.id)
      failed++
    }
  }
  return { built, failed, expired: await expireExports(deps) }
}

/**
 * Removes the files of exports past their 7 days, then marks each expired. A file storage cannot remove now leaves its
 * export ready (past its expiry, so no longer downloadable) for the next run: a person's data is never left behind
 * with nothing to remove it, and one failure does not stop the others.
 */
async function expireExports({ db, storage, log }: ExportDeps): Promise<number> {
  let expired = 0
  for (const row of await exportsPastExpiry(db, clock.now())) {
    try {
      if (row.storage_key) await storage.remove(row.storage_key)
      await markExportExpired(db, row.id)
      expired++
    } catch (error) {
      log.error({ err: error, exportId: row.id }, 'expired data export not removed; the next run tries again')
    }
  }
  return expired
}
