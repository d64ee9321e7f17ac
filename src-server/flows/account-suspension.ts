// Staff suspend an account (decision 0160): fraud (stolen cards, chargebacks), abuse of instructors or learners. While
// it lasts no sign-in makes a session and no session it had opens anything; its API keys stop. What it bought stays
// (a refund or the end of a plan is its own decision, on its order). The person is told why, and told when it is lifted.
import { type Actor, record } from '../audit/repository.ts'
import { endHandoffsOf } from '../auth/handoffs.ts'
import { endPendingLoginsOf } from '../auth/pending-login.ts'
import { invalidateUserSessions } from '../auth/session.ts'
import { lockAccountAgainstSignIns } from '../auth/sign-in-lock.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { lift, suspend, suspensionOf } from '../users/suspension.ts'

export const SUSPENSION_MAIL_KINDS = { suspended: 'account-suspended', lifted: 'account-reinstated' } as const

export const SUSPENSION_MESSAGES = {
  notFound: 'No such customer.',
  staffAccount: 'This is a member of the staff team: remove them from the team first (Users).',
  already: 'This account is already suspended.',
  notSuspended: 'This account is not suspended.',
  suspended: 'The account is suspended: its sessions ended, and it cannot sign in until the suspension is lifted.',
  lifted: 'The suspension is lifted: the customer can sign in again.',
} as const

/** What the customer page shows: since when and why, or null. */
export async function suspensionStatus(db: DB, userId: string) {
  const suspension = await suspensionOf(db, userId)
  return suspension ? { since: suspension.since.toISOString(), reason: suspension.reason } : null
}

async function customerOf(db: DB, customerId: string) {
  const customer = await db
    .selectFrom('users')
    .select(['id', 'email', 'role'])
    .where('id', '=', customerId)
    .executeTakeFirst()
  if (!customer) throw new DomainError('not_found', SUSPENSION_MESSAGES.notFound)
  return customer
}

/**
 * Suspends a customer's account: in one transaction, under the account's sign-in lock (a sign-in under way finishes
 * first, and its session ends here; the next sees the suspension), the sessions, half-finished log-ins and school
 * hand-off codes end, the person is mailed the reason, and the audit log names the staff member. A staff account is
 * refused: it is removed from the team first, so one admin cannot silently lock another out.
 */
export async function suspendCustomer(
  db: DB,
  staff: Actor,
  input: { customerId: string; reason: string },
  publicUrl: string,
) {
  const customer = await customerOf(db, input.customerId)
  if (customer.role !== 'customer') throw new DomainError('forbidden', SUSPENSION_MESSAGES.staffAccount)
  await inTransaction(db, async (trx) => {
    await lockAccountAgainstSignIns(trx, customer.id)
    const reason = input.reason.trim()
    if (!(await suspend(trx, customer.id, { staffId: staff.id, reason, at: clock.now() }))) {
      throw new DomainError('conflict', SUSPENSION_MESSAGES.already)
    }
    await invalidateUserSessions(trx, customer.id)
    await endPendingLoginsOf(trx, customer.id)
    await endHandoffsOf(trx, customer.id)
    await record(trx, staff, 'customer.suspended', { type: 'user', id: customer.id })
    await enqueueMail(trx, {
      kind: SUSPENSION_MAIL_KINDS.suspended,
      to: customer.email,
      subject: 'Your SkillForge account is suspended',
      text: [
        'Our team suspended your SkillForge account, so it cannot sign in for now. The reason:',
        '',
        `  ${reason}`,
        '',
        `If you think this is a mistake, write to us: ${publicUrl}/contact`,
        '',
      ].join('\n'),
    })
  })
  return { message: SUSPENSION_MESSAGES.suspended, suspension: await suspensionStatus(db, customer.id) }
}

/** Lifts a suspension: the person can sign in again, and is told so. */
export async function liftSuspension(db: DB, staff: Actor, customerId: string, publicUrl: string) {
  const customer = await customerOf(db, customerId)
  await inTransaction(db, async (trx) => {
    if (!(await lift(trx, customer.id))) throw new DomainError('conflict', SUSPENSION_MESSAGES.notSuspended)
    await record(trx, staff, 'customer.unsuspended', { type: 'user', id: customer.id })
    await enqueueMail(trx, {
      kind: SUSPENSION_MAIL_KINDS.lifted,
      to: customer.email,
      subject: 'Your SkillForge account is open again',
      text: `The suspension of your SkillForge account is lifted: you can sign in again.\n\n${publicUrl}/login\n`,
    })
  })
  return { message: SUSPENSION_MESSAGES.lifted, suspension: null }
}
