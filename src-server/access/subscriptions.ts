// A Stripe subscription's status and period, as Stripe reports them, applied to the subscription and to the Premium
// grant it gives in the access ledger.
import type { DB } from '../db.ts'
import { premiumEndsAt } from './grants.ts'
import { revoke, setGrantEnd } from './ledger.ts'

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'cancelled'

/** Stripe's subscription statuses in ours; the rest (incomplete, paused) change nothing. */
export const STRIPE_SUBSCRIPTION_STATUS: Partial<Record<string, SubscriptionStatus>> = {
  trialing: 'trialing',
  active: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  canceled: 'cancelled',
  incomplete_expired: 'cancelled',
}

/** False when no subscription of ours has that Stripe id (a subscription this shop did not create). */
export async function syncStripeSubscription(
  trx: DB,
  change: { stripeSubscriptionId: string; status: SubscriptionStatus; renewsAt: Date | null },
): Promise<boolean> {
  const updated = await trx
    .updateTable('subscriptions')
    .set({ status: change.status, updated_at: new Date(), ...(change.renewsAt ? { renews_at: change.renewsAt } : {}) })
    .where('stripe_subscription_id', '=', change.stripeSubscriptionId)
    .returning('id')
    .execute()
  for (const { id } of updated) {
    if (change.status === 'cancelled') await revoke(trx, { subscriptionId: id }, 'cancellation')
    // Paid (or in its trial) up to the period's end: Premium runs until then plus the grace days.
    else if (change.renewsAt && change.status !== 'past_due') await setGrantEnd(trx, id, premiumEndsAt(change.renewsAt))
  }
  return updated.length > 0
}
