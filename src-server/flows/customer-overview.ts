// Staff's view of one customer (/admin/customers, decision 0155): "I can't open my course", "where is my company
// formation" and "I wrote twice" each meant a search on another page. One look-up by the account's address gathers
// what support needs from each domain's own read: the account, the plan, the orders, the courses held now, the service
// orders, the messages to support, a change of address waiting (decision 0158), the privacy requests (0159), a
// suspension (0160) and staff's notes (0161). Each look-up that finds an account is written to the audit log (who read whose
// customer page, when): the page gathers a person's whole history, so reading it is accountable like changing it.
import { listOwnedCourses } from '../access/courses.ts'
import { type Actor, record } from '../audit/repository.ts'
import { listSupportInbox } from '../contact/support-inbox.ts'
import type { DB } from '../kernel/db.ts'
import { listOrdersForUser, ORDER_HISTORY_LIMIT } from '../orders/repository.ts'
import { exportsOf } from '../privacy/exports.ts'
import { listForBuyer } from '../service-orders/repository.ts'
import { membershipOf } from '../subscriptions/view.ts'
import { findAccountByEmail } from '../users/email.ts'
import { deletionStatus } from './account-deletion.ts'
import { suspensionStatus } from './account-suspension.ts'
import { customerNotes } from './customer-notes.ts'
import { customerEmailChangeStatus } from './email-change.ts'
import { signInsOf } from './staff-sign-out.ts'

/** The newest messages of each kind shown (open, answered); the support inbox's Find lists the rest. */
const MESSAGES_SHOWN = 10

/**
 * The customer with this address (lowercased by the input's schema), or null when no account has it. `staff` is who
 * looks: the audit log names them with the account's id (never the address, which an erasure would have to scrub).
 */
export async function customerOverview(db: DB, staff: Actor, email: string) {
  const account = await findAccountByEmail(db, email)
  if (!account) return null
  await record(db, staff, 'customer.viewed', { type: 'user', id: account.id })
  const inbox = (status: 'open' | 'answered') =>
    listSupportInbox(db, { status, page: 1, pageSize: MESSAGES_SHOWN, sender: email })
  const [membership, orders, courses, serviceOrders, open, answered, emailChange, privacy, suspension, notes, signIns] =
    await Promise.all([
      membershipOf(db, account.id),
      listOrdersForUser(db, account.id),
      listOwnedCourses(db, account.id),
      listForBuyer(db, account.id),
      inbox('open'),
      inbox('answered'),
      customerEmailChangeStatus(db, account),
      privacyRequestsOf(db, account.id),
      suspensionStatus(db, account.id),
      customerNotes(db, account.id),
      signInsOf(db, account.id),
    ])
  return {
    account: {
      id: account.id,
      email: account.email,
      name: `${account.first_name} ${account.last_name}`.trim(),
      role: account.role,
      verified: account.email_verified,
      joinedAt: account.created_at.toISOString(),
    },
    /** A link waiting at a new address (from the customer or from support), or why support cannot move them. */
    emailChange,
    privacy,
    /** Since when and why staff suspended the account (decision 0160), or null. */
    suspension,
    /** On how many devices the account is signed in now, and its latest activity (decision 0162). */
    signIns,
    /** Staff's notes about the customer, newest first (decision 0161). */
    notes,
    membership: membership ? { planName: membership.planName, statusText: membership.statusText } : null,
    orders: orders.map((order) => ({
      id: order.id,
      reference: order.reference,
      status: order.status,
      totalMinor: order.totalMinor,
      refundedMinor: order.refundedMinor,
      currency: order.currency,
      createdAt: order.createdAt,
      lines: order.items.map((item) => item.title),
    })),
    /** The orders are the newest ORDER_HISTORY_LIMIT, as the customer's own history lists them: there may be more. */
    moreOrders: orders.length === ORDER_HISTORY_LIMIT,
    courses: courses.map(({ id, title, enrolledAt }) => ({ id, title, enrolledAt })),
    serviceOrders: serviceOrders.map(({ id, title, serviceTitle, status, createdAt }) => ({
      id,
      title,
      serviceTitle,
      status,
      createdAt,
    })),
    messages: [...open.items, ...answered.items].map(({ id, subject, sentAt, answeredAt }) => ({
      id,
      subject,
      sentAt,
      answeredAt,
    })),
    messageCounts: { open: open.total, answered: answered.total },
  }
}

/**
 * The person's privacy requests as support handles them when a customer writes in (decision 0159): their newest data
 * export, and their account's deletion: scheduled, or what stands in its way, and what it would take (the sentences
 * the person's own security page shows them).
 */
async function privacyRequestsOf(db: DB, userId: string) {
  const [exports, deletion] = await Promise.all([exportsOf(db, userId), deletionStatus(db, userId)])
  const latest = exports[0]
  return {
    latestExport: latest
      ? {
          status: latest.status,
          requestedAt: latest.created_at.toISOString(),
          expiresAt: latest.expires_at?.toISOString() ?? null,
        }
      : null,
    deletion: deletion.scheduled ? { eraseAfter: deletion.scheduled.eraseAfter.toISOString() } : null,
    deletionBlockers: deletion.blockers,
    deletionConsequences: deletion.consequences,
  }
}
