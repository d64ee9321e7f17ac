// What a member does with their plan from /account → Membership: cancel at the period's end (with an optional
// reason), resume before it ends, change plan or cycle (the prorated amount from Stripe's preview is shown first and
// the change charges exactly that), and open Stripe's customer portal; staff's End membership cancels through the
// same functions, at the period's end or now (flows/staff-membership.ts). Stripe is asked first; its answer is applied
// at once (the webhook that follows finds it applied). A PayPal or bank-transfer membership is cancelled here alone.

import type { BillingCycle } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { moveOrder } from '../orders/transitions.ts'
import type { PriceChange, StripeApi } from '../payments/stripe.ts'
import type { StripeSubscription } from '../payments/stripe-schemas.ts'
import { CHANGE_QUOTE_MINUTES, keepChangeQuote, takeChangeQuote } from '../subscriptions/change-quotes.ts'
import { findPlan } from '../subscriptions/plans.ts'
import {
  endManualSubscription,
  liveSubscriptionOf,
  recordCancelReason,
  setManualCancellation,
  subscriptionToEnd,
} from '../subscriptions/repository.ts'
import { applyStripeSnapshot } from '../subscriptions/state.ts'
import { snapshotOf } from './stripe-subscription-events.ts'

export const MEMBERSHIP_MESSAGES = {
  none: 'You have no live membership',
  cardOnly: 'Plan changes and billing are managed by card; for a PayPal or bank-transfer plan please contact us.',
  samePlan: 'That is already your plan',
  stripeFailed: 'Stripe could not make the change. Please try again.',
  notConfigured: 'Card payments are not configured on this store yet.',
  reviewAgain: `The price you saw is no longer current (a price is kept for ${CHANGE_QUOTE_MINUTES} minutes). Please show the price again and confirm the amount shown.`,
  pastDue:
    'Your last payment did not go through. Please update your card first (Update card); you can change plan once your membership is paid up.',
  billedWithService:
    'This membership is billed together with a service, so its plan cannot be changed here. Please contact us to change it.',
} as const

/** Stripe's states of a subscription whose money is owed: no plan change credits a period never paid (decision 0135). */
const UNPAID_AT_STRIPE = new Set(['past_due', 'unpaid', 'incomplete', 'paused'])

export interface MembershipDeps {
  db: DB
  stripe: StripeApi | null
}

async function liveOrFail(db: DB, userId: string) {
  const live = await liveSubscriptionOf(db, userId)
  if (!live) throw new DomainError('not_found', MEMBERSHIP_MESSAGES.none)
  return live
}

function stripeOf(deps: MembershipDeps): StripeApi {
  if (!deps.stripe) throw new DomainError('precondition', MEMBERSHIP_MESSAGES.notConfigured)
  return deps.stripe
}

const upstream = (error: unknown) => {
  throw new DomainError('upstream', MEMBERSHIP_MESSAGES.stripeFailed, { cause: error })
}

/** What goes with a change in the transaction that records it: staff's audit entry and mail (decision 0096). */
export type AlongWith = (trx: DB) => Promise<void>

function applyAnswer(db: DB, subscriptionId: string, answer: StripeSubscription, alongWith?: AlongWith) {
  return db.transaction().execute(async (trx) => {
    await applyStripeSnapshot(trx, subscriptionId, snapshotOf(answer, false, clock.now()))
    await alongWith?.(trx)
  })
}

export async function cancelMembership(deps: MembershipDeps, userId: string, reason: string | null) {
  await cancelAtPeriodEnd(deps, await liveOrFail(deps.db, userId), reason)
}

/**
 * Cancels a plan at its period's end, the member's Cancel membership and staff's End membership alike: Stripe is asked
 * first and its answer applied at once; a PayPal or bank-transfer plan is cancelled here alone.
 */
export async function cancelAtPeriodEnd(
  deps: MembershipDeps,
  live: { id: string; stripe_subscription_id: string | null },
  reason: string | null,
  alongWith?: AlongWith,
) {
  if (!live.stripe_subscription_id) {
    await deps.db.transaction().execute(async (trx) => {
      await setManualCancellation(trx, live.id, true, reason)
      await alongWith?.(trx)
    })
    return
  }
  const answer = await stripeOf(deps)
    .setCancelAtPeriodEnd(live.stripe_subscription_id, true, reason ?? undefined)
    .catch(upstream)
  await recordCancelReason(deps.db, live.id, reason)
  await applyAnswer(deps.db, live.id, answer, alongWith)
}

type ToEnd = NonNullable<Awaited<ReturnType<typeof subscriptionToEnd>>>

/**
 * Ends a plan now (staff, decision 0096): Stripe cancels the subscription (a trial ends uncharged) and its answer is
 * applied as the member's own cancellation is when its period ends; a PayPal or bank-transfer plan ends here. All
 * under the subscription's row lock, so a second end waits and `check` finds it ended; Stripe's
 * customer.subscription.deleted that follows finds it applied.
 */
export async function endMembershipNow(
  deps: MembershipDeps,
  subscriptionId: string,
  check: (row: ToEnd | undefined) => ToEnd,
  alongWith: AlongWith,
  changedBy: string,
) {
  await deps.db.transaction().execute(async (trx) => {
    const row = check(await subscriptionToEnd(trx, subscriptionId, { lock: true }))
    if (row.stripe_subscription_id) {
      const answer = await stripeOf(deps).cancelSubscription(row.stripe_subscription_id).catch(upstream)
      await applyStripeSnapshot(trx, row.id, snapshotOf(answer, false, clock.now()))
    } else {
      await endCancelledManualPlan(trx, row.id, clock.now(), changedBy)
    }
    await alongWith(trx)
  })
}

/**
 * A PayPal or bank-transfer plan ends by its cancellation (the member's, at the period's end, or staff's, now): the
 * renewal order it was waiting on, still unpaid, is cancelled with it, since paying it would buy nothing (only a lapse
 * is reopened by a late payment). `changedBy`: the staff member, or null for the schedule.
 */
export async function endCancelledManualPlan(trx: DB, subscriptionId: string, at: Date, changedBy: string | null) {
  const ended = await endManualSubscription(trx, subscriptionId, at, 'cancellation')
  if (!ended?.renewalOrderId) return
  await moveOrder(trx, ended.renewalOrderId, 'cancel', { cancelled_at: clock.now(), status_changed_by: changedBy })
}

export async function resumeMembership(deps: MembershipDeps, userId: string) {
  const live = await liveOrFail(deps.db, userId)
  if (!live.stripe_subscription_id) {
    await deps.db.transaction().execute((trx) => setManualCancellation(trx, live.id, false, null))
    return
  }
  const answer = await stripeOf(deps).setCancelAtPeriodEnd(live.stripe_subscription_id, false).catch(upstream)
  await applyAnswer(deps.db, live.id, answer)
}

/** The new price and the Stripe item it replaces, for a preview and the change that follows it. */
async function priceChange(deps: MembershipDeps, userId: string, planId: string, cycle: BillingCycle) {
  const live = await liveOrFail(deps.db, userId)
  if (!live.stripe_subscription_id) throw new DomainError('precondition', MEMBERSHIP_MESSAGES.cardOnly)
  // A change while a payment is owed would prorate (credit) a period never paid: the card is updated first.
  if (live.status === 'past_due') throw new DomainError('precondition', MEMBERSHIP_MESSAGES.pastDue)
  if (live.plan_id === planId && live.billing_cycle === cycle)
    throw new DomainError('invalid', MEMBERSHIP_MESSAGES.samePlan)
  const plan = await findPlan(deps.db, planId)
  if (!plan) throw new DomainError('not_found', 'Plan not found')
  const stripe = stripeOf(deps)
  const current = await stripe.retrieveSubscription(live.stripe_subscription_id).catch(upstream)
  // Stripe may know of the failed payment before its webhook reaches us.
  if (UNPAID_AT_STRIPE.has(current.status)) throw new DomainError('precondition', MEMBERSHIP_MESSAGES.pastDue)
  const items = current.items?.data ?? []
  // A plan once checked out with a monthly service shares its subscription: replacing "the" item would drop one.
  if (items.length > 1) throw new DomainError('precondition', MEMBERSHIP_MESSAGES.billedWithService)
  const itemId = items[0]?.id
  if (!itemId) throw new DomainError('upstream', MEMBERSHIP_MESSAGES.stripeFailed)
  const change: PriceChange = {
    itemId,
    product: { id: `plan_${plan.id}`, name: plan.name },
    unitAmountMinor: cycle === 'annual' ? plan.annual_price_minor : plan.monthly_price_minor,
    currency: plan.currency,
    interval: cycle === 'annual' ? 'year' : 'month',
  }
  return { live: { id: live.id, stripeId: live.stripe_subscription_id }, plan, change, stripe }
}

/**
 * What changing now would charge. Its proration date is kept on the server (decision 0135): the confirmation names it
 * and the change is prorated at it, so the member pays the amount shown.
 */
export async function previewPlanChange(deps: MembershipDeps, userId: string, planId: string, cycle: BillingCycle) {
  const { live, plan, change, stripe } = await priceChange(deps, userId, planId, cycle)
  const preview = await stripe.previewPriceChange(live.stripeId, change).catch(upstream)
  await keepChangeQuote(
    deps.db,
    {
      subscriptionId: live.id,
      planId: plan.id,
      billingCycle: cycle,
      prorationDate: preview.prorationDate,
      amountDueMinor: preview.amountDueMinor,
    },
    clock.now(),
  )
  return {
    planId: plan.id,
    planName: plan.name,
    billingCycle: cycle,
    newPriceMinor: change.unitAmountMinor,
    amountDueMinor: preview.amountDueMinor,
    currency: preview.currency,
    prorationDate: preview.prorationDate,
  }
}

/**
 * The change the member confirmed: prorated at the kept date of the preview they saw (any other date, or a preview
 * older than CHANGE_QUOTE_MINUTES, is refused: they see the price again). The kept preview is used once.
 */
export async function changePlan(
  deps: MembershipDeps,
  userId: string,
  input: { planId: string; billingCycle: BillingCycle; prorationDate: number },
) {
  const { live, change, stripe } = await priceChange(deps, userId, input.planId, input.billingCycle)
  const prorationDate = await takeChangeQuote(
    deps.db,
    {
      subscriptionId: live.id,
      planId: input.planId,
      billingCycle: input.billingCycle,
      prorationDate: input.prorationDate,
    },
    clock.now(),
  )
  if (prorationDate === null) throw new DomainError('conflict', MEMBERSHIP_MESSAGES.reviewAgain)
  const metadata = { planId: input.planId, billingCycle: input.billingCycle }
  const answer = await stripe.changePrice(live.stripeId, { ...change, prorationDate }, metadata).catch(upstream)
  await applyAnswer(deps.db, live.id, answer)
}

export async function billingPortalUrl(deps: MembershipDeps, userId: string, returnUrl: string) {
  const row = await deps.db
    .selectFrom('subscriptions')
    .select('stripe_customer_id')
    .where('user_id', '=', userId)
    .where('stripe_customer_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row?.stripe_customer_id) throw new DomainError('precondition', MEMBERSHIP_MESSAGES.cardOnly)
  return stripeOf(deps).createPortalSession(row.stripe_customer_id, returnUrl).catch(upstream)
}
