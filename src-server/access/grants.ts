// The rights a paid order gives its buyer: an enrolment per course, a subscription (Premium) per plan. Called by
// orders/ inside the payment's transaction; idempotent (a second call for the same order adds nothing).
import type { BillingCycle, CartItemKind } from '../../db/types.ts'
import { TRIAL_DAYS } from '../../src-shared/constants.ts'
import type { DB } from '../db.ts'

const DAY_MS = 24 * 60 * 60 * 1000
const PERIOD_DAYS: Record<BillingCycle, number> = { monthly: 30, annual: 365 }

export interface PaidOrder {
  userId: string
  orderId: string
  lines: readonly {
    kind: CartItemKind
    course_id: string | null
    plan_id: string | null
    billing_cycle: BillingCycle | null
  }[]
  /** Set when Stripe runs the subscription: it starts in its free trial and Stripe's events say when it ends. */
  stripeSubscriptionId: string | null
  paidAt: Date
}

export async function grantForPaidOrder(trx: DB, order: PaidOrder): Promise<void> {
  const courseIds = order.lines.flatMap((line) => (line.kind === 'course' && line.course_id ? [line.course_id] : []))
  if (courseIds.length) {
    await trx
      .insertInto('enrolments')
      .values(courseIds.map((courseId) => ({ user_id: order.userId, course_id: courseId, order_id: order.orderId })))
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .execute()
  }
  const fromStripe = Boolean(order.stripeSubscriptionId)
  for (const line of order.lines) {
    if (line.kind !== 'plan' || !line.plan_id || !line.billing_cycle) continue
    // A card subscription starts with the free trial; a manually confirmed one runs for its billing period.
    const days = fromStripe ? TRIAL_DAYS : PERIOD_DAYS[line.billing_cycle]
    await trx
      .insertInto('subscriptions')
      .values({
        user_id: order.userId,
        plan_id: line.plan_id,
        billing_cycle: line.billing_cycle,
        status: fromStripe ? 'trialing' : 'active',
        order_id: order.orderId,
        stripe_subscription_id: order.stripeSubscriptionId,
        renews_at: new Date(order.paidAt.getTime() + days * DAY_MS),
      })
      .onConflict((oc) => oc.columns(['order_id', 'plan_id']).doNothing())
      .execute()
  }
}
