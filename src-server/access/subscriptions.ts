// A Stripe subscription's status and period, as Stripe reports them, applied to the subscription that gives Premium.
import type { DB } from '../db.ts'

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
  const result = await trx
    .updateTable('subscriptions')
    .set({ status: change.status, updated_at: new Date(), ...(change.renewsAt ? { renews_at: change.renewsAt } : {}) })
    .where('stripe_subscription_id', '=', change.stripeSubscriptionId)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
