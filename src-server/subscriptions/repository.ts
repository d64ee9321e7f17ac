// Subscriptions: the billing state of a plan, and the source of the Premium grant in the ledger. A user has at most
// one live subscription (trialing, active or past due): a unique index says so, and starting one locks the user
// row so concurrent payments of several plan orders keep one and mark the others duplicates.

import type { BillingCycle } from '../../db/types.ts'
import { TRIAL_DAYS } from '../../src-shared/constants.ts'
import { grant } from '../access/ledger.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { reopenLapsed, settleSubscription } from './state.ts'

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'cancelled'
export const LIVE_STATUSES = ['trialing', 'active', 'past_due'] as const

const DAY_MS = 24 * 60 * 60 * 1000
export const PERIOD_DAYS: Record<BillingCycle, number> = { monthly: 30, annual: 365 }

/** The user's live subscription, or undefined. */
export function liveSubscriptionOf(db: DB, userId: string) {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'plan_id', 'billing_cycle', 'status', 'stripe_subscription_id', 'renews_at', 'cancel_at_period_end'])
    .where('user_id', '=', userId)
    .where('status', 'in', [...LIVE_STATUSES])
    .where('duplicate_of', 'is', null)
    .executeTakeFirst()
}

/** The user's plans not ended yet (live, duplicates included), to narrow further. */
const unendedPlansOf = (db: DB, userId: string) =>
  db
    .selectFrom('subscriptions as s')
    .where('s.user_id', '=', userId)
    .where('s.status', 'in', [...LIVE_STATUSES])
    .where('s.ended_at', 'is', null)

/** The user's plans that will charge again (not ended, not set to end at their period's end), duplicates included. */
export function renewingSubscriptionsOf(db: DB, userId: string) {
  return unendedPlansOf(db, userId)
    .select(['s.id', 's.duplicate_of'])
    .where('s.cancel_at_period_end', '=', false)
    .execute()
}

/**
 * The person's live plans set to end at their period's end for `reason` (the cancellation's reason as stored): their
 * name and the day they end.
 */
export function plansSetToEndFor(db: DB, userId: string, reason: string) {
  return unendedPlansOf(db, userId)
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .select(['s.id', 'p.name', 's.renews_at'])
    .where('s.cancel_at_period_end', '=', true)
    .where('s.cancel_reason', '=', reason)
    .execute()
}

/** One free trial per user: whoever has had a subscription (of any kind) starts the next one paid. */
export async function hasHadSubscription(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst()
  return Boolean(row)
}

export interface StartedPlan {
  userId: string
  orderId: string
  orderItemId: string
  planId: string
  billingCycle: BillingCycle
  /** Set when Stripe runs the subscription (card); its events then say when periods end. */
  stripeSubscriptionId: string | null
  paidAt: Date
}

/**
 * A paid plan line. A card plan starts in its free trial (the first subscription only) or paid; a manual one
 * (PayPal, bank transfer) runs for its billing period. A paid manual renewal order extends its subscription instead.
 * Idempotent per order and plan; a second live plan is recorded as a duplicate of the first and gives nothing.
 */
export async function startSubscription(trx: DB, plan: StartedPlan): Promise<void> {
  // One at a time per user: the live-subscription check below cannot race another payment of this user.
  await trx.selectFrom('users').select('id').where('id', '=', plan.userId).forUpdate().execute()
  const renewed = await trx
    .selectFrom('subscriptions')
    .select('id')
    .where('renewal_order_id', '=', plan.orderId)
    .executeTakeFirst()
  if (renewed) return extendManualSubscription(trx, renewed.id, plan.orderId)

  const price = await trx
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.unit_price_minor', 'o.currency'])
    .where('i.id', '=', plan.orderItemId)
    .executeTakeFirstOrThrow()
  const live = await liveSubscriptionOf(trx, plan.userId)
  const fromStripe = Boolean(plan.stripeSubscriptionId)
  const trial = fromStripe && !(await hasHadSubscription(trx, plan.userId))
  const days = trial ? TRIAL_DAYS : PERIOD_DAYS[plan.billingCycle]
  const renewsAt = new Date(plan.paidAt.getTime() + days * DAY_MS)
  const inserted = await trx
    .insertInto('subscriptions')
    .values({
      user_id: plan.userId,
      plan_id: plan.planId,
      billing_cycle: plan.billingCycle,
      status: live ? 'cancelled' : trial ? 'trialing' : 'active',
      order_id: plan.orderId,
      stripe_subscription_id: plan.stripeSubscriptionId,
      // Provisional for a card plan until Stripe's first event; a manual plan is paid through its period.
      renews_at: renewsAt,
      trial_ends_at: trial ? renewsAt : null,
      paid_through: fromStripe ? null : renewsAt,
      stripe_status: fromStripe ? (trial ? 'trialing' : 'active') : null,
      amount_minor: price.unit_price_minor,
      currency: price.currency,
      duplicate_of: live?.id ?? null,
      ended_at: live ? plan.paidAt : null,
    })
    .onConflict((oc) => oc.columns(['order_id', 'plan_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted || live) return
  await grant(trx, {
    userId: plan.userId,
    right: { kind: 'premium' },
    source: { kind: 'subscription', subscriptionId: inserted.id },
    startsAt: plan.paidAt,
  })
  await settleSubscription(trx, inserted.id)
}

/** A manual renewal order was paid: one more billing period from where the paid one ends. */
async function extendManualSubscription(trx: DB, subscriptionId: string, orderId: string) {
  const row = await trx
    .selectFrom('subscriptions')
    .select(['billing_cycle', 'paid_through', 'renews_at'])
    .where('id', '=', subscriptionId)
    .executeTakeFirstOrThrow()
  const from = row.paid_through ?? row.renews_at ?? clock.now()
  const paidThrough = new Date(from.getTime() + PERIOD_DAYS[row.billing_cycle] * DAY_MS)
  await trx
    .updateTable('subscriptions')
    .set({ paid_through: paidThrough, renews_at: paidThrough, renewal_order_id: null, updated_at: clock.now() })
    .where('id', '=', subscriptionId)
    .where('renewal_order_id', '=', orderId)
    .execute()
  await reopenLapsed(trx, subscriptionId)
}

export type Reminder = { kind: 'trial' } | { kind: 'payment_issue'; invoiceId: string } | { kind: 'renewal'; for: Date }

/**
 * Claims the right to send a reminder once: true for the first caller (the mark is written in its transaction),
 * false when it was sent already (a trial reminder once per subscription, a payment problem once per invoice, a
 * renewal reminder once per renewal date).
 */
export async function claimReminder(trx: DB, subscriptionId: string, reminder: Reminder): Promise<boolean> {
  let query = trx.updateTable('subscriptions').where('id', '=', subscriptionId)
  if (reminder.kind === 'trial') {
    query = query.set({ trial_reminder_sent_at: clock.now() }).where('trial_reminder_sent_at', 'is', null)
  } else if (reminder.kind === 'payment_issue') {
    query = query
      .set({ payment_issue_invoice: reminder.invoiceId })
      .where((eb) =>
        eb.or([eb('payment_issue_invoice', 'is', null), eb('payment_issue_invoice', '!=', reminder.invoiceId)]),
      )
  } else {
    query = query
      .set({ renewal_reminder_for: reminder.for })
      .where((eb) => eb.or([eb('renewal_reminder_for', 'is', null), eb('renewal_reminder_for', '!=', reminder.for)]))
  }
  const result = await query.executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Subscriptions with their plan's name and what describes them: the base of the membership page and e-mails. */
export function subscriptionsWithPlan(db: DB) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .select([
      's.id',
      's.user_id',
      's.plan_id',
      'p.name as plan_name',
      's.billing_cycle',
      's.status',
      's.renews_at',
      's.trial_ends_at',
      's.cancel_at_period_end',
      's.amount_minor',
      's.currency',
      's.stripe_subscription_id',
      's.stripe_customer_id',
      's.paid_through',
      's.order_id',
      's.ended_at',
      's.end_reason',
    ])
}

/**
 * A subscription as staff would end it (any member's), locked with `forUpdate` inside the caller's transaction so two
 * ends of the same plan take turns; undefined for an unknown id.
 */
export function subscriptionToEnd(db: DB, subscriptionId: string, options: { lock: boolean }) {
  const query = db
    .selectFrom('subscriptions')
    .select([
      'id',
      'user_id',
      'status',
      'stripe_subscription_id',
      'cancel_at_period_end',
      'renews_at',
      'ended_at',
      'duplicate_of',
      'staff_end_claimed_at',
    ])
    .where('id', '=', subscriptionId)
  return (options.lock ? query.forUpdate() : query).executeTakeFirst()
}

/** How long an unfinished claim on staff's End membership holds: well past Stripe's timeout, so only a stopped server's lapses. */
export const STAFF_END_CLAIM_MS = 60_000

/** Whether another admin's claim (taken at `claimedAt`) still holds at `now`. */
export const staffEndClaimHolds = (claimedAt: Date | null, now: Date) =>
  claimedAt !== null && claimedAt.getTime() >= now.getTime() - STAFF_END_CLAIM_MS

/**
 * Claims staff's End membership at the period's end for one admin while Stripe is asked (decision 0096): false when
 * another's claim holds. A guarded update, so of two at once the second waits for the first's row and then finds it
 * claimed.
 */
export async function claimStaffEnd(trx: DB, subscriptionId: string, now: Date): Promise<boolean> {
  const claimed = await trx
    .updateTable('subscriptions')
    .set({ staff_end_claimed_at: now })
    .where('id', '=', subscriptionId)
    .where((eb) =>
      eb.or([
        eb('staff_end_claimed_at', 'is', null),
        eb('staff_end_claimed_at', '<', new Date(now.getTime() - STAFF_END_CLAIM_MS)),
      ]),
    )
    .executeTakeFirst()
  return claimed.numUpdatedRows > 0n
}

/** Lets go of staff's claim: with the change it made, or after it failed. */
export async function releaseStaffEnd(db: DB, subscriptionId: string): Promise<void> {
  await db.updateTable('subscriptions').set({ staff_end_claimed_at: null }).where('id', '=', subscriptionId).execute()
}

/** A subscription with its plan and member, for the e-mails that describe it. */
export function describeSubscription(db: DB, subscriptionId: string) {
  return subscriptionsWithPlan(db)
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.email', 'u.first_name'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst()
}

/** A PayPal or bank-transfer membership is cancelled at its period's end (no renewal order), or resumed. */
export async function setManualCancellation(trx: DB, subscriptionId: string, cancel: boolean, reason: string | null) {
  await trx
    .updateTable('subscriptions')
    .set({ cancel_at_period_end: cancel, cancel_reason: cancel ? reason : null, updated_at: clock.now() })
    .where('id', '=', subscriptionId)
    .where('stripe_subscription_id', 'is', null)
    .execute()
  await settleSubscription(trx, subscriptionId)
}

/** Keeps the member's reason for cancelling a card membership (Stripe keeps it too). */
export async function recordCancelReason(trx: DB, subscriptionId: string, reason: string | null) {
  await trx
    .updateTable('subscriptions')
    .set({ cancel_reason: reason, updated_at: clock.now() })
    .where('id', '=', subscriptionId)
    .execute()
}

/** The subscription an order started, if it is in its free trial: what the success page tells. */
export function trialOfOrder(db: DB, orderId: string) {
  return db
    .selectFrom('subscriptions')
    .select(['trial_ends_at', 'amount_minor', 'currency'])
    .where('order_id', '=', orderId)
    .where('status', '=', 'trialing')
    .where('duplicate_of', 'is', null)
    .executeTakeFirst()
}

/** The renewal order sent for a manual subscription's next period (paying it extends the subscription). */
export async function attachRenewalOrder(trx: DB, subscriptionId: string, orderId: string) {
  await trx
    .updateTable('subscriptions')
    .set({ renewal_order_id: orderId, updated_at: clock.now() })
    .where('id', '=', subscriptionId)
    .execute()
}

/**
 * A manual subscription whose paid period and grace days are over: it ends, and its Premium grant is revoked for
 * `reason` ('lapse' when unpaid, 'cancellation' when the member had cancelled); returns the renewal order it was
 * waiting on (null if none), or null when it was already ended.
 */
export async function endManualSubscription(
  trx: DB,
  subscriptionId: string,
  at: Date,
  reason: 'lapse' | 'cancellation',
): Promise<{ renewalOrderId: string | null } | null> {
  const ended = await trx
    .updateTable('subscriptions')
    .set({ ended_at: at, end_reason: reason, updated_at: clock.now() })
    .where('id', '=', subscriptionId)
    .where('stripe_subscription_id', 'is', null)
    .where('ended_at', 'is', null)
    .returning('renewal_order_id')
    .executeTakeFirst()
  if (!ended) return null
  await settleSubscription(trx, subscriptionId)
  return { renewalOrderId: ended.renewal_order_id }
}

/** The Stripe customers the person's plans were billed to (distinct ids; none for manual or PayPal plans). */
export async function stripeCustomersOf(db: DB, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('stripe_customer_id')
    .distinct()
    .where('user_id', '=', userId)
    .where('stripe_customer_id', 'is not', null)
    .execute()
  return rows.flatMap((row) => (row.stripe_customer_id ? [row.stripe_customer_id] : []))
}
