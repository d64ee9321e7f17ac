// Staff suspend an account (decision 0160): fraud (stolen cards, chargebacks), abuse of instructors or learners. While
// it lasts no sign-in makes a session and no session it had opens anything; its API keys stop; a plan that would charge
// again is set to end at its period's end (nobody is charged for what they cannot use, and a stolen card is charged no
// more). What it bought stays (a refund is its own decision, on its order). The person is told why, and when it is
// lifted.
import { formatDate } from '../../src-shared/dates.ts'
import { type Actor, record } from '../audit/repository.ts'
import { endAllSignIns } from '../auth/end-sign-ins.ts'
import { creatorBalances } from '../earnings/balances.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { plansSetToEndFor, renewingSubscriptionsOf } from '../subscriptions/repository.ts'
import { accountForStaffAction } from '../users/contact.ts'
import { lift, suspend, suspensionOf } from '../users/suspension.ts'
import type { MembershipDeps } from './membership.ts'
import { endMembershipByStaff } from './staff-membership.ts'

export const SUSPENSION_MAIL_KINDS = { suspended: 'account-suspended', lifted: 'account-reinstated' } as const

/** The cancellation reason a plan the suspension set to end carries (its order and Stripe show it). */
const SUSPENSION_END_REASON = 'Account suspended'

export const SUSPENSION_MESSAGES = {
  staffAccount: 'This is a member of the staff team: remove them from the team first (Users).',
  already: 'This account is already suspended.',
  notSuspended: 'This account is not suspended.',
  suspended: 'The account is suspended: its sessions ended, and it cannot sign in until the suspension is lifted.',
  renewalsStopped: ' Their plan will not renew: it ends at the end of its period.',
  renewalsLeft: ' Their plan’s renewal could not be stopped now: end it from its order (Orders).',
  lifted: 'The suspension is lifted: the customer can sign in again.',
  plansToResume: (count: number) =>
    ` ${count === 1 ? 'The plan the suspension set to end still ends' : `The ${count} plans the suspension set to end still end`} at the period’s end unless they resume it (they were told how).`,
} as const

/**
 * What the customer page shows: since when and why, and a creator's earnings not paid out, which wait while it lasts
 * (decision 0164); or null.
 */
export async function suspensionStatus(db: DB, userId: string) {
  const suspension = await suspensionOf(db, userId)
  if (!suspension) return null
  const heldEarnings = (await creatorBalances(db, userId))
    .map((balance) => ({ currency: balance.currency, amountMinor: balance.pendingMinor + balance.availableMinor }))
    .filter((held) => held.amountMinor > 0)
  return { since: suspension.since.toISOString(), reason: suspension.reason, heldEarnings }
}

/**
 * Suspends a customer's account: in one transaction, under the account's sign-in lock (a sign-in under way finishes
 * first, and its session ends here; the next sees the suspension), the sessions, half-finished log-ins and school
 * hand-off codes end, the person is mailed the reason, and the audit log names the staff member. A staff account is
 * refused: it is removed from the team first, so one admin cannot silently lock another out.
 */
export async function suspendCustomer(
  deps: MembershipDeps & { publicUrl: string },
  staff: Actor,
  input: { customerId: string; reason: string },
) {
  const { db, publicUrl } = deps
  const customer = await accountForStaffAction(db, input.customerId, SUSPENSION_MESSAGES.staffAccount)
  await inTransaction(db, async (trx) => {
    const reason = input.reason.trim()
    if (!(await suspend(trx, customer.id, { staffId: staff.id, reason, at: clock.now() }))) {
      throw new DomainError('conflict', SUSPENSION_MESSAGES.already)
    }
    await endAllSignIns(trx, customer.id)
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
  const renewals = await stopRenewals(deps, staff, customer.id)
  const message =
    SUSPENSION_MESSAGES.suspended +
    (renewals.stopped > 0 ? SUSPENSION_MESSAGES.renewalsStopped : '') +
    (renewals.left > 0 ? SUSPENSION_MESSAGES.renewalsLeft : '')
  return { message, suspension: await suspensionStatus(db, customer.id) }
}

/**
 * Sets the suspended person's renewing plans to end at their period's end, as an admin would from the order (its
 * audit entry and the member's mail): after the suspension has committed, since Stripe is asked. A refusal (Stripe
 * down, another admin ending it) leaves that plan to staff, and the answer says so.
 */
async function stopRenewals(deps: MembershipDeps & { publicUrl: string }, staff: Actor, userId: string) {
  let stopped = 0
  let left = 0
  for (const plan of await renewingSubscriptionsOf(deps.db, userId)) {
    if (plan.duplicate_of) continue
    try {
      await endMembershipByStaff(
        deps,
        { subscriptionId: plan.id, when: 'period_end', reason: SUSPENSION_END_REASON },
        staff,
      )
      stopped += 1
    } catch {
      left += 1
    }
  }
  return { stopped, left }
}

/**
 * Lifts a suspension: the person can sign in again, and is told so. A plan the suspension set to end is not restarted
 * (the card it bills may be why the account was suspended): the mail names it and how to keep it.
 */
export async function liftSuspension(db: DB, staff: Actor, customerId: string, publicUrl: string) {
  const customer = await accountForStaffAction(db, customerId)
  const plans = await inTransaction(db, async (trx) => {
    if (!(await lift(trx, customer.id))) throw new DomainError('conflict', SUSPENSION_MESSAGES.notSuspended)
    await record(trx, staff, 'customer.unsuspended', { type: 'user', id: customer.id })
    const ending = await plansSetToEndFor(trx, customer.id, SUSPENSION_END_REASON)
    const resume = ending.map(
      (plan) =>
        `Your ${plan.name} membership was set to end${plan.renews_at ? ` on ${formatDate(plan.renews_at)}` : ''} when your account was suspended. To keep it, resume it before then: ${publicUrl}/account/membership`,
    )
    await enqueueMail(trx, {
      kind: SUSPENSION_MAIL_KINDS.lifted,
      to: customer.email,
      subject: 'Your SkillForge account is open again',
      text: [
        'The suspension of your SkillForge account is lifted: you can sign in again.',
        '',
        `${publicUrl}/login`,
        ...resume.flatMap((line) => ['', line]),
        '',
      ].join('\n'),
    })
    return ending.length
  })
  return {
    message: SUSPENSION_MESSAGES.lifted + (plans > 0 ? SUSPENSION_MESSAGES.plansToResume(plans) : ''),
    suspension: null,
  }
}
