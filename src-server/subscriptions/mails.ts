// The membership e-mails, each queued in the outbox inside the transaction of the change that sends it, and each
// sent once (subscriptions/repository.ts claimReminder keeps the mark).

import { formatDate } from '../../src-shared/dates.ts'
import { formatMoney } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { claimReminder, describeSubscription } from './repository.ts'

type Described = NonNullable<Awaited<ReturnType<typeof describeSubscription>>>

const membershipLink = (publicUrl: string) => `${publicUrl.replace(/\/$/, '')}/account/membership`
const priceOf = (sub: Described) => formatMoney(sub.amount_minor ?? 0, sub.currency ?? 'USD')
const hello = (sub: Described) => `Hi ${sub.first_name || 'there'},`

/** 3 days before a trial ends (Stripe's trial_will_end, or the daily reminder job): once per subscription. */
export async function sendTrialEndingMail(trx: DB, subscriptionId: string, publicUrl: string): Promise<boolean> {
  const sub = await describeSubscription(trx, subscriptionId)
  if (sub?.status !== 'trialing' || !sub.trial_ends_at || sub.cancel_at_period_end) return false
  if (!(await claimReminder(trx, sub.id, { kind: 'trial' }))) return false
  const day = formatDate(sub.trial_ends_at)
  await enqueueMail(trx, {
    kind: 'trial_ending',
    to: sub.email,
    subject: `Your free trial ends on ${day}`,
    text: `${hello(sub)}\n\nYour free trial of the ${sub.plan_name} plan ends on ${day}. Your first charge of ${priceOf(sub)} is on ${day}.\n\nTo change or cancel your plan: ${membershipLink(publicUrl)}\n`,
  })
  return true
}

/** A renewal could not be charged: past due, with a link to fix the card. Once per invoice. */
export async function sendPaymentProblemMail(trx: DB, subscriptionId: string, invoiceId: string, publicUrl: string) {
  const sub = await describeSubscription(trx, subscriptionId)
  if (sub?.status !== 'past_due') return false
  if (!(await claimReminder(trx, sub.id, { kind: 'payment_issue', invoiceId }))) return false
  await enqueueMail(trx, {
    kind: 'payment_failed',
    to: sub.email,
    subject: 'Past due — update your card',
    text: `${hello(sub)}\n\nWe could not take the ${priceOf(sub)} payment for your ${sub.plan_name} plan. Your membership is past due: please update your card so it keeps running.\n\nUpdate your card: ${membershipLink(publicUrl)}\n`,
  })
  return true
}

/** 7 days before renews_at: an annual renewal, or a PayPal / bank-transfer renewal with its order reference. */
export async function sendRenewalReminderMail(
  trx: DB,
  sub: Described,
  publicUrl: string,
  renewalOrder: { reference: string } | null,
) {
  const day = formatDate(sub.renews_at!)
  const pay = renewalOrder
    ? `Please pay ${priceOf(sub)} with the reference ${renewalOrder.reference} by ${day} (PayPal or bank transfer, as before). Your renewal order is in your order history.`
    : `We will charge ${priceOf(sub)} to your card on ${day}.`
  await enqueueMail(trx, {
    kind: 'renewal_reminder',
    to: sub.email,
    subject: `Your ${sub.plan_name} plan renews on ${day}`,
    text: `${hello(sub)}\n\nYour ${sub.plan_name} plan renews on ${day}. ${pay}\n\nManage your membership: ${membershipLink(publicUrl)}\n`,
  })
}

/** A manual renewal stayed unpaid past the grace days: Premium has ended. */
export async function sendLapsedMail(trx: DB, sub: Described, publicUrl: string) {
  await enqueueMail(trx, {
    kind: 'membership_lapsed',
    to: sub.email,
    subject: `Your ${sub.plan_name} plan has ended`,
    text: `${hello(sub)}\n\nWe did not receive the renewal payment for your ${sub.plan_name} plan, so your Premium access has ended. You can subscribe again at any time: ${publicUrl.replace(/\/$/, '')}/pricing\n`,
  })
}

/**
 * Staff ended the member's plan (decision 0096): at the period's end (Premium until then, no further charge) or now
 * (Premium has ended; a trial ended now is never charged). No refund comes with it: a refund has its own mail.
 */
export async function sendEndedByStaffMail(
  trx: DB,
  subscriptionId: string,
  ended: { when: 'period_end' | 'now'; trial: boolean },
  publicUrl: string,
) {
  const sub = await describeSubscription(trx, subscriptionId)
  if (!sub) return
  const what = ended.trial ? `free trial of the ${sub.plan_name} plan` : `${sub.plan_name} plan`
  const day = sub.renews_at ? formatDate(sub.renews_at) : null
  const [subject, body] =
    ended.when === 'period_end'
      ? [
          day ? `Your ${sub.plan_name} plan ends on ${day}` : `Your ${sub.plan_name} plan is cancelled`,
          `Our team has cancelled your ${what}. ${day ? `Premium stays until ${day}; ` : ''}you will not be charged again.`,
        ]
      : [
          `Your ${sub.plan_name} plan has ended`,
          `Our team has ended your ${what} today, and your Premium access has ended with it. ${
            ended.trial ? 'You have not been charged for the trial.' : 'You will not be charged again.'
          }`,
        ]
  await enqueueMail(trx, {
    kind: 'membership_ended_by_staff',
    to: sub.email,
    subject,
    text: `${hello(sub)}\n\n${body}\n\nYour membership: ${membershipLink(publicUrl)}\n`,
  })
}
