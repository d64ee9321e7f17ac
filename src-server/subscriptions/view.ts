// /account → Membership: the member's live (or last) subscription, with its status told in words; and the same
// words for staff beside the order that started it.
import { type MembershipFacts, type MembershipStatus, membershipStatusText } from '../../src-shared/membership.ts'
import type { DB } from '../kernel/db.ts'
import { subscriptionsWithPlan } from './repository.ts'

type SubscriptionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof subscriptionsWithPlan>['executeTakeFirst']>>>

/** The facts the words are made of, the same for the member and for staff. */
function factsOf(row: SubscriptionRow): MembershipFacts {
  return {
    status: row.status as MembershipStatus,
    renewsAt: row.renews_at?.toISOString() ?? null,
    trialEndsAt: row.trial_ends_at?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    amountMinor: row.amount_minor,
    currency: row.currency,
    endedAt: row.ended_at?.toISOString() ?? null,
    endReason: row.end_reason,
  }
}

/** The live subscription, else the newest one (a former member sees which plan ended, when and why), or null. */
export async function membershipOf(db: DB, userId: string) {
  const row = await subscriptionsWithPlan(db)
    .where('s.user_id', '=', userId)
    .where('s.duplicate_of', 'is', null)
    .orderBy((eb) => eb.case().when('s.status', '=', 'cancelled').then(1).else(0).end())
    .orderBy('s.created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) return null
  const facts = factsOf(row)
  const live = row.status !== 'cancelled'
  return {
    subscriptionId: row.id,
    orderId: row.order_id,
    planId: row.plan_id,
    planName: row.plan_name,
    billingCycle: row.billing_cycle,
    ...facts,
    statusText: membershipStatusText(facts),
    paidBy: row.stripe_subscription_id ? ('card' as const) : ('manual' as const),
    canCancel: live && !row.cancel_at_period_end,
    canResume: live && row.cancel_at_period_end,
    // Not while past due: the card is updated first (decision 0135).
    canChangePlan:
      live && Boolean(row.stripe_subscription_id) && !row.cancel_at_period_end && row.status !== 'past_due',
    canManageBilling: Boolean(row.stripe_customer_id),
    /** A plan that ended may be bought again (without a trial: one per person). */
    canSubscribeAgain: !live,
  }
}

/**
 * For staff: the plan each of these orders started, as its member reads it ("Basic plan — Cancelled on DATE"), and
 * whether staff's End membership may end it at its period's end or now (decision 0096).
 */
export async function plansOfOrders(db: DB, orderIds: readonly string[]) {
  if (orderIds.length === 0) return new Map<string, StaffPlan>()
  const rows = await subscriptionsWithPlan(db)
    .where('s.order_id', 'in', [...orderIds])
    .where('s.duplicate_of', 'is', null)
    .execute()
  const plans = new Map<string, StaffPlan>()
  for (const row of rows) {
    if (!row.order_id) continue
    const live = row.status !== 'cancelled' && !row.ended_at
    plans.set(row.order_id, {
      text: `${row.plan_name} plan — ${membershipStatusText(factsOf(row))}`,
      subscriptionId: row.id,
      planName: row.plan_name,
      trial: row.status === 'trialing',
      periodEndsAt: row.renews_at?.toISOString() ?? null,
      canEndAtPeriodEnd: live && !row.cancel_at_period_end,
      canEndNow: live,
    })
  }
  return plans
}

export interface StaffPlan {
  text: string
  subscriptionId: string
  planName: string
  trial: boolean
  /** When the current period (or the trial) ends: where "at the end of the current period" ends it. */
  periodEndsAt: string | null
  canEndAtPeriodEnd: boolean
  canEndNow: boolean
}
