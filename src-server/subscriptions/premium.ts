// Premium is decided here only: a live Premium grant in the access ledger (from a subscription, or given by staff).

import { type MembershipStatus, nextChargeDay } from '../../src-shared/membership.ts'
import { ownedCourseIds } from '../access/courses.ts'
import { isLive } from '../access/ledger.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { hasHadSubscription } from './repository.ts'

/**
 * The live Premium grant with the subscription and plan behind it (none for a staff grant or a gift), or undefined.
 * A gifted plan (decision 0050) has no subscription: its grant's order line names the plan (gift_plan_name).
 * held_plan_id is the plan either way; plan_id stays the subscription's (null for a gift or a staff grant).
 */
export function currentSubscription(db: DB, userId: string, now = clock.now()) {
  return (
    db
      .selectFrom('access_grants')
      .leftJoin('subscriptions as s', 's.id', 'access_grants.subscription_id')
      .leftJoin('plans as p', 'p.id', 's.plan_id')
      .leftJoin('order_items as gift_line', (join) =>
        join.onRef('gift_line.id', '=', 'access_grants.order_item_id').on('access_grants.subscription_id', 'is', null),
      )
      .leftJoin('plans as gift_plan', 'gift_plan.id', 'gift_line.plan_id')
      .select((eb) => [
        's.plan_id',
        'p.name',
        's.billing_cycle',
        's.status',
        's.renews_at',
        's.trial_ends_at',
        's.cancel_at_period_end',
        'access_grants.ends_at',
        'gift_plan.name as gift_plan_name',
        // The plan whose promises hold (support tier, creator features): the subscription's, or the gifted term's.
        eb.fn.coalesce('s.plan_id', 'gift_plan.id').as('held_plan_id'),
      ])
      .where('access_grants.user_id', '=', userId)
      .where('access_grants.kind', '=', 'premium')
      .where(isLive(now))
      // A subscription's grant names the plan; prefer it to a staff grant, and the newest subscription.
      .orderBy((eb) => eb.case().when('s.id', 'is', null).then(1).else(0).end())
      .orderBy('access_grants.starts_at', 'desc')
      .limit(1)
      .executeTakeFirst()
  )
}

/**
 * How far the user's Premium reaches as of now: the latest end among their live Premium grants (a subscription's, a
 * gift's, staff's), null when one of them has no end, undefined when none is live. currentSubscription's one grant
 * (the subscription's, preferred for its plan) may end before another live grant does.
 */
export async function premiumLiveUntil(db: DB, userId: string, now = clock.now()): Promise<Date | null | undefined> {
  const row = await db
    .selectFrom('access_grants')
    .select((eb) => [
      eb.fn.countAll<string>().as('live'),
      eb.fn.count<string>('ends_at').as('ending'),
      eb.fn.max('ends_at').as('latest'),
    ])
    .where('user_id', '=', userId)
    .where('kind', '=', 'premium')
    .where(isLive(now))
    .executeTakeFirstOrThrow()
  if (Number(row.live) === 0) return undefined
  if (Number(row.ending) < Number(row.live) || !row.latest) return null
  return new Date(row.latest)
}

/**
 * The latest end of the user's Premium grants that still run after `now`, started or not (a gifted term waiting for
 * another to end counts): where the next gifted term begins. Undefined when none ends later (or none has an end).
 */
export async function premiumGrantedUntil(db: DB, userId: string, now = clock.now()): Promise<Date | undefined> {
  const row = await db
    .selectFrom('access_grants')
    .select((eb) => eb.fn.max('ends_at').as('latest'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'premium')
    .where('revoked_at', 'is', null)
    .where('ends_at', '>', now)
    .executeTakeFirstOrThrow()
  return row.latest ? new Date(row.latest) : undefined
}

export async function isPremium(db: DB, user: { id: string }, now = clock.now()): Promise<boolean> {
  return Boolean(await currentSubscription(db, user.id, now))
}

/** What the header, course buttons and account pages show: Premium and its plan, and the courses owned. */
export async function entitlementsOf(db: DB, user: { id: string }, now = clock.now()) {
  const [subscription, courseIds, hadSubscription] = await Promise.all([
    currentSubscription(db, user.id, now),
    ownedCourseIds(db, user.id, now),
    hasHadSubscription(db, user.id),
  ])
  return {
    isPremium: Boolean(subscription),
    plan:
      subscription?.plan_id && subscription.name && subscription.billing_cycle && subscription.status
        ? {
            id: subscription.plan_id,
            name: subscription.name,
            billingCycle: subscription.billing_cycle,
            status: subscription.status,
            /** Cancelled at the period's end: renewsAt is then the day Premium ends. */
            cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
          }
        : null,
    // In a free trial, its end: the first charge (or, cancelled, the day Premium ends).
    renewsAt: subscription
      ? nextChargeDay({
          status: subscription.status as MembershipStatus,
          renewsAt: subscription.renews_at?.toISOString() ?? null,
          trialEndsAt: subscription.trial_ends_at?.toISOString() ?? null,
        })
      : null,
    /** Premium given as a gift: the plan's name and the day it ends (it never renews). */
    gift:
      subscription && !subscription.plan_id && subscription.gift_plan_name
        ? { planName: subscription.gift_plan_name, endsAt: subscription.ends_at?.toISOString() ?? null }
        : null,
    courseIds,
    /** One free trial per user: pricing says when the next plan starts paid. */
    trialAvailable: !hadSubscription,
  }
}

/** A visitor's entitlements: nothing. */
export const NO_ENTITLEMENTS = {
  isPremium: false,
  plan: null,
  renewsAt: null,
  gift: null,
  courseIds: [] as string[],
  trialAvailable: true,
}
