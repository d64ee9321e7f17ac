// A subscription's state, derived from facts that do not depend on the order they arrive in:
// - monotone facts: paid through (the latest period end a paid invoice or the trial covers), failed through (the
//   latest period end an invoice failed to pay), ended (once ended, always ended);
// - the newest subscription snapshot Stripe sent (by event time): its status, period end, cancellation and price.
// settleSubscription() turns them into our status, renews_at and the end (or revocation) of the Premium grant, so
// the same events in any order, with any duplicates, end in the same state.

import type { BillingCycle } from '../../db/types.ts'
import { PREMIUM_GRACE_DAYS } from '../../src-shared/constants.ts'
import { restore, revoke, setGrantEnd } from '../access/ledger.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** When Premium paid up to `paidUntil` stops: after the grace days. */
export function premiumEndsAt(paidUntil: Date): Date {
  return new Date(paidUntil.getTime() + PREMIUM_GRACE_DAYS * DAY_MS)
}

const later = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b)

export interface StripeSnapshot {
  /** The event's time: an older snapshot than the one applied changes nothing but the monotone facts. */
  eventAt: Date
  status: string
  periodEnd: Date | null
  trialEnd: Date | null
  cancelAtPeriodEnd: boolean
  endedAt: Date | null
  endReason: 'cancellation' | 'lapse'
  customerId: string | null
  plan: { planId: string; billingCycle: BillingCycle } | null
  price: { amountMinor: number; currency: string } | null
}

export async function applyStripeSnapshot(trx: DB, subscriptionId: string, snap: StripeSnapshot): Promise<void> {
  const row = await lockSubscription(trx, subscriptionId)
  const newest = !row.stripe_snapshot_at || snap.eventAt >= row.stripe_snapshot_at
  const ended = snap.endedAt ?? (['canceled', 'incomplete_expired'].includes(snap.status) ? snap.eventAt : null)
  await trx
    .updateTable('subscriptions')
    .set({
      // The trial is paid for (by nobody) up to its end.
      paid_through: later(row.paid_through, snap.trialEnd),
      ...(ended && !row.ended_at ? { ended_at: ended, end_reason: snap.endReason } : {}),
      ...(newest
        ? {
            stripe_snapshot_at: snap.eventAt,
            stripe_status: snap.status,
            stripe_period_end: snap.periodEnd,
            trial_ends_at: snap.trialEnd,
            cancel_at_period_end: snap.cancelAtPeriodEnd,
            ...(snap.customerId ? { stripe_customer_id: snap.customerId } : {}),
            ...(snap.plan ? { plan_id: snap.plan.planId, billing_cycle: snap.plan.billingCycle } : {}),
            ...(snap.price ? { amount_minor: snap.price.amountMinor, currency: snap.price.currency } : {}),
          }
        : {}),
      updated_at: clock.now(),
    })
    .where('id', '=', subscriptionId)
    .execute()
  await settleSubscription(trx, subscriptionId)
}

/** An invoice was paid (or failed) for the period ending `periodEnd`. */
export async function applyInvoiceOutcome(
  trx: DB,
  subscriptionId: string,
  outcome: { paid: boolean; periodEnd: Date },
): Promise<void> {
  const row = await lockSubscription(trx, subscriptionId)
  await trx
    .updateTable('subscriptions')
    .set(
      outcome.paid
        ? { paid_through: later(row.paid_through, outcome.periodEnd), updated_at: clock.now() }
        : { failed_through: later(row.failed_through, outcome.periodEnd), updated_at: clock.now() },
    )
    .where('id', '=', subscriptionId)
    .execute()
  await settleSubscription(trx, subscriptionId)
}

/** Writes status and renews_at from the facts, and the Premium grant's end or revocation. */
export async function settleSubscription(trx: DB, subscriptionId: string): Promise<void> {
  const row = await lockSubscription(trx, subscriptionId)
  if (row.duplicate_of) return
  const fromStripe = Boolean(row.stripe_subscription_id)
  const unpaidInvoice = Boolean(row.failed_through && (!row.paid_through || row.failed_through > row.paid_through))
  // Stripe may say past due before its failed invoice reaches us; a paid period covering its period says otherwise.
  const stripeSaysUnpaid =
    ['past_due', 'unpaid'].includes(row.stripe_status ?? '') &&
    !(row.paid_through && row.stripe_period_end && row.paid_through >= row.stripe_period_end)
  const pastDue = unpaidInvoice || (fromStripe && stripeSaysUnpaid)
  const status = row.ended_at
    ? 'cancelled'
    : pastDue
      ? 'past_due'
      : fromStripe && row.stripe_status === 'trialing'
        ? 'trialing'
        : 'active'
  // Until Stripe's first event, the provisional renews_at set at checkout stands.
  const renewsAt = (fromStripe ? later(row.stripe_period_end, row.paid_through) : row.paid_through) ?? row.renews_at
  const paidUntil = row.paid_through ?? row.renews_at
  let endsAt = paidUntil ? premiumEndsAt(paidUntil) : null
  // A cancellation at the period's end ends Premium exactly then, without the grace days.
  if (row.cancel_at_period_end && renewsAt && (!endsAt || renewsAt < endsAt)) endsAt = renewsAt
  await trx.updateTable('subscriptions').set({ status, renews_at: renewsAt }).where('id', '=', subscriptionId).execute()
  await setGrantEnd(trx, subscriptionId, endsAt)
  if (row.ended_at) await revoke(trx, { subscriptionId }, row.end_reason ?? 'cancellation', row.ended_at)
}

/** A lapsed manual subscription paid after all: live again, its Premium restored. */
export async function reopenLapsed(trx: DB, subscriptionId: string): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set({ ended_at: null, end_reason: null, updated_at: clock.now() })
    .where('id', '=', subscriptionId)
    .where('end_reason', '=', 'lapse')
    .where('stripe_subscription_id', 'is', null)
    .execute()
  await restore(trx, { subscriptionId }, { reason: 'lapse' })
  await settleSubscription(trx, subscriptionId)
}

function lockSubscription(trx: DB, subscriptionId: string) {
  return trx
    .selectFrom('subscriptions')
    .select([
      'id',
      'stripe_subscription_id',
      'stripe_status',
      'stripe_snapshot_at',
      'stripe_period_end',
      'paid_through',
      'failed_through',
      'renews_at',
      'ended_at',
      'end_reason',
      'cancel_at_period_end',
      'duplicate_of',
    ])
    .where('id', '=', subscriptionId)
    .forUpdate()
    .executeTakeFirstOrThrow()
}

/** A refund gave back an order's plan: its subscriptions end now and their Premium grant is revoked ('refund'). */
export async function endPlansOfOrder(trx: DB, orderId: string, at: Date): Promise<void> {
  const subscriptions = await trx.selectFrom('subscriptions').select('id').where('order_id', '=', orderId).execute()
  for (const subscription of subscriptions) await endRefundedSubscription(trx, subscription.id, at)
}

/**
 * A subscription whose money was given back (its order's plan, or its current period's renewal, decision 0089): it
 * ends now (status Cancelled, "Refunded on DATE") and its Premium grant is revoked ('refund'). Returns its Stripe
 * subscription when this ended it, for the caller to cancel there; null when it had ended already.
 */
export async function endRefundedSubscription(trx: DB, subscriptionId: string, at: Date): Promise<string | null> {
  const subscription = await trx
    .selectFrom('subscriptions')
    .select(['ended_at', 'stripe_subscription_id'])
    .where('id', '=', subscriptionId)
    .executeTakeFirstOrThrow()
  await revoke(trx, { subscriptionId }, 'refund', at)
  if (subscription.ended_at) return null
  await trx
    .updateTable('subscriptions')
    .set({ ended_at: at, end_reason: 'refund', cancel_at_period_end: false, updated_at: at })
    .where('id', '=', subscriptionId)
    .execute()
  await settleSubscription(trx, subscriptionId)
  return subscription.stripe_subscription_id
}
