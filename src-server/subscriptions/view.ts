// /account → Membership: the member's live (or last) subscription, with its status told in words.
import { type MembershipStatus, membershipStatusText } from '../../src-shared/membership.ts'
import type { DB } from '../kernel/db.ts'
import { subscriptionsWithPlan } from './repository.ts'

/** The live subscription, else the newest one (so a cancelled member sees "Cancelled"), or null. */
export async function membershipOf(db: DB, userId: string) {
  const row = await subscriptionsWithPlan(db)
    .where('s.user_id', '=', userId)
    .where('s.duplicate_of', 'is', null)
    .orderBy((eb) => eb.case().when('s.status', '=', 'cancelled').then(1).else(0).end())
    .orderBy('s.created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) return null
  const facts = {
    status: row.status as MembershipStatus,
    renewsAt: row.renews_at?.toISOString() ?? null,
    trialEndsAt: row.trial_ends_at?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    amountMinor: row.amount_minor,
    currency: row.currency,
  }
  const live = row.status !== 'cancelled'
  return {
    planId: row.plan_id,
    planName: row.plan_name,
    billingCycle: row.billing_cycle,
    ...facts,
    statusText: membershipStatusText(facts),
    paidBy: row.stripe_subscription_id ? ('card' as const) : ('manual' as const),
    canCancel: live && !row.cancel_at_period_end,
    canResume: live && row.cancel_at_period_end,
    canChangePlan: live && Boolean(row.stripe_subscription_id) && !row.cancel_at_period_end,
    canManageBilling: Boolean(row.stripe_customer_id),
  }
}
