// The membership schedule (an hourly job on the queue, jobs/registry.ts). Each step picks what is due and acts once:
// - a reminder 3 days before a trial ends (if Stripe's trial_will_end has not sent it already);
// - a reminder 7 days before an annual card renewal;
// - for a PayPal or bank-transfer member, 7 days before renews_at: a renewal order and a reminder with its reference
//   (less a plan coupon's share while the coupon's duration covers it, as Stripe does for card renewals);
// - 3 days after renews_at, such a member who has not paid lapses: Premium is revoked ('lapse') and told so.
// "Once" is a mark on the subscription written in the same transaction as the mail (access/ claimReminder).

import { PREMIUM_GRACE_DAYS } from '../../src-shared/constants.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { createRenewalOrder, firstPlanOrder } from '../orders/renewal.ts'
import { planDurationOfOrder } from '../promotions/coupons.ts'
import { planRenewalDiscount } from '../promotions/plan-coupon-renewals.ts'
import { sendLapsedMail, sendRenewalReminderMail, sendTrialEndingMail } from '../subscriptions/mails.ts'
import { findPlan } from '../subscriptions/plans.ts'
import {
  attachRenewalOrder,
  claimReminder,
  describeSubscription,
  endManualSubscription,
  PERIOD_DAYS,
} from '../subscriptions/repository.ts'
import { endCancelledManualPlan } from './membership.ts'

const DAY_MS = 86_400_000
export const TRIAL_REMINDER_DAYS = 3
export const RENEWAL_REMINDER_DAYS = 7

export interface MembershipScheduleDeps {
  db: DB
  publicUrl: string
  referencePrefix: string
}

export async function runMembershipSchedule(deps: MembershipScheduleDeps, now = clock.now()) {
  const { db } = deps
  const within = (days: number) => new Date(now.getTime() + days * DAY_MS)
  const live = () => db.selectFrom('subscriptions').select('id').where('duplicate_of', 'is', null)
  const counts = { trialReminders: 0, renewalReminders: 0, renewalOrders: 0, lapsed: 0 }

  const trials = await live()
    .where('status', '=', 'trialing')
    .where('trial_reminder_sent_at', 'is', null)
    .where('trial_ends_at', '>', now)
    .where('trial_ends_at', '<=', within(TRIAL_REMINDER_DAYS))
    .execute()
  for (const { id } of trials) {
    if (await db.transaction().execute((trx) => sendTrialEndingMail(trx, id, deps.publicUrl))) counts.trialReminders++
  }

  const renewing = await live()
    .select(['stripe_subscription_id', 'billing_cycle'])
    .where('status', '=', 'active')
    .where('cancel_at_period_end', '=', false)
    .where('renews_at', '>', now)
    .where('renews_at', '<=', within(RENEWAL_REMINDER_DAYS))
    .where((eb) =>
      eb.or([eb('renewal_reminder_for', 'is', null), eb('renewal_reminder_for', '!=', eb.ref('renews_at'))]),
    )
    .where((eb) => eb.or([eb('stripe_subscription_id', 'is', null), eb('billing_cycle', '=', 'annual')]))
    .execute()
  for (const row of renewing) {
    const sent = await db.transaction().execute(async (trx) => {
      const sub = await describeSubscription(trx, row.id)
      if (!sub?.renews_at || !(await claimReminder(trx, sub.id, { kind: 'renewal', for: sub.renews_at }))) return null
      if (sub.stripe_subscription_id) {
        await sendRenewalReminderMail(trx, sub, deps.publicUrl, null)
        return 'reminder' as const
      }
      const order = await renewalOrderFor(trx, sub, deps.referencePrefix)
      await sendRenewalReminderMail(trx, sub, deps.publicUrl, order)
      return 'order' as const
    })
    if (sent) counts.renewalReminders++
    if (sent === 'order') counts.renewalOrders++
  }

  // A manual membership whose period and grace days are over (its renewal order unpaid, or it was cancelled).
  const graceStart = new Date(now.getTime() - PREMIUM_GRACE_DAYS * DAY_MS)
  const over = await live()
    .select(['renews_at', 'cancel_at_period_end'])
    .where('stripe_subscription_id', 'is', null)
    .where('ended_at', 'is', null)
    .where('status', '!=', 'cancelled')
    .where((eb) =>
      eb.or([
        eb('renews_at', '<=', graceStart),
        eb.and([eb('cancel_at_period_end', '=', true), eb('renews_at', '<=', now)]),
      ]),
    )
    .execute()
  for (const row of over) {
    const renewsAt = row.renews_at ?? now
    const lapsed = await db.transaction().execute(async (trx) => {
      if (row.cancel_at_period_end) {
        await endCancelledManualPlan(trx, row.id, renewsAt, null)
        return false
      }
      const ended = await endManualSubscription(
        trx,
        row.id,
        new Date(renewsAt.getTime() + PREMIUM_GRACE_DAYS * DAY_MS),
        'lapse',
      )
      const sub = ended ? await describeSubscription(trx, row.id) : undefined
      if (sub) await sendLapsedMail(trx, sub, deps.publicUrl)
      return ended
    })
    if (lapsed) counts.lapsed++
  }
  return counts
}

/**
 * One more period of the plan, at its price now, paid the way the member paid before; a plan coupon of the first order
 * takes its stored share off while its duration covers this renewal, as Stripe does for a card membership.
 */
async function renewalOrderFor(
  trx: DB,
  sub: NonNullable<Awaited<ReturnType<typeof describeSubscription>>>,
  referencePrefix: string,
) {
  const first = sub.order_id ? await firstPlanOrder(trx, sub.order_id) : undefined
  const plan = await findPlan(trx, sub.plan_id)
  if (!plan) throw new Error(`plan ${sub.plan_id} is gone`)
  const priceMinor = sub.billing_cycle === 'annual' ? plan.annual_price_minor : plan.monthly_price_minor
  const discount = await renewalDiscount(trx, sub, first, priceMinor)
  const order = await createRenewalOrder(trx, {
    userId: sub.user_id,
    planId: plan.id,
    planName: plan.name,
    billingCycle: sub.billing_cycle,
    method: first?.method === 'paypal' ? 'paypal' : 'bank_transfer',
    priceMinor,
    currency: plan.currency === 'GBP' ? 'GBP' : 'USD',
    referencePrefix,
    discount,
  })
  await attachRenewalOrder(trx, sub.id, order.id)
  return order
}

/** The plan coupon's part of this renewal (undefined when the first order had none or its duration is over). */
async function renewalDiscount(
  trx: DB,
  sub: NonNullable<Awaited<ReturnType<typeof describeSubscription>>>,
  first: Awaited<ReturnType<typeof firstPlanOrder>>,
  priceMinor: number,
) {
  if (!sub.order_id || !first?.paid_at || !sub.renews_at || !(first.plan_discount_minor ?? 0)) return undefined
  const coupon = await planDurationOfOrder(trx, sub.order_id)
  if (!coupon?.plan_duration) return undefined
  // Manual periods run from the first payment back to back (subscriptions/repository.ts): the renewal's number.
  const period = PERIOD_DAYS[sub.billing_cycle] * DAY_MS
  const index = Math.round((sub.renews_at.getTime() - first.paid_at.getTime()) / period)
  const minor = planRenewalDiscount(
    { duration: coupon.plan_duration, months: coupon.plan_duration_months, shareMinor: first.plan_discount_minor ?? 0 },
    { cycle: sub.billing_cycle, index, priceMinor },
  )
  return minor > 0 ? { code: coupon.code, minor } : undefined
}
