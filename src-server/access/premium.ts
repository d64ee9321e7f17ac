// Premium is decided here only: a trialing or active subscription that has not run out.
import type { DB } from '../db.ts'
import { ownedCourseIds } from './courses.ts'

/** The user's live subscription with its plan, or undefined. */
export function currentSubscription(db: DB, userId: string, now = new Date()) {
  return (
    db
      .selectFrom('subscriptions as s')
      .innerJoin('plans as p', 'p.id', 's.plan_id')
      .select(['s.plan_id', 'p.name', 's.billing_cycle', 's.status', 's.renews_at'])
      .where('s.user_id', '=', userId)
      .where('s.status', 'in', ['trialing', 'active'])
      // A Stripe subscription renews itself (its events say when it ends); a manual one lapses at renews_at.
      .where((eb) => eb.or([eb('s.stripe_subscription_id', 'is not', null), eb('s.renews_at', '>', now)]))
      .orderBy('s.created_at', 'desc')
      .limit(1)
      .executeTakeFirst()
  )
}

export async function isPremium(db: DB, user: { id: string }, now = new Date()): Promise<boolean> {
  return Boolean(await currentSubscription(db, user.id, now))
}

/** What the header, course buttons and account pages show: Premium and its plan, and the courses owned. */
export async function entitlementsOf(db: DB, user: { id: string }, now = new Date()) {
  const [subscription, courseIds] = await Promise.all([
    currentSubscription(db, user.id, now),
    ownedCourseIds(db, user.id),
  ])
  return {
    isPremium: Boolean(subscription),
    plan: subscription
      ? {
          id: subscription.plan_id,
          name: subscription.name,
          billingCycle: subscription.billing_cycle,
          status: subscription.status,
        }
      : null,
    renewsAt: subscription?.renews_at?.toISOString() ?? null,
    courseIds,
  }
}

/** A visitor's entitlements: nothing. */
export const NO_ENTITLEMENTS = { isPremium: false, plan: null, renewsAt: null, courseIds: [] as string[] }
