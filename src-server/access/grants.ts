// The rights a paid order gives its buyer, recorded in the access ledger: a course grant per course line, a service
// grant per business-service line, and per plan line a subscription whose Premium grant runs to the end of its
// period plus the grace days. Called by orders/ inside the payment's transaction; idempotent (a second call for the
// same order adds nothing).
import type { BillingCycle, CartItemKind } from '../../db/types.ts'
import { PREMIUM_GRACE_DAYS, TRIAL_DAYS } from '../../src-shared/constants.ts'
import type { DB } from '../db.ts'
import { grant } from './ledger.ts'

const DAY_MS = 24 * 60 * 60 * 1000
const PERIOD_DAYS: Record<BillingCycle, number> = { monthly: 30, annual: 365 }

export interface PaidOrder {
  userId: string
  orderId: string
  lines: readonly {
    /** The order item: the source of the grant. */
    id: string
    kind: CartItemKind
    course_id: string | null
    service_package_id?: string | null
    plan_id: string | null
    billing_cycle: BillingCycle | null
  }[]
  /** Set when Stripe runs the subscription: it starts in its free trial and Stripe's events say when it ends. */
  stripeSubscriptionId: string | null
  paidAt: Date
}

/** When Premium paid up to `paidUntil` stops: after the grace days. */
export function premiumEndsAt(paidUntil: Date): Date {
  return new Date(paidUntil.getTime() + PREMIUM_GRACE_DAYS * DAY_MS)
}

export async function grantForPaidOrder(trx: DB, order: PaidOrder): Promise<void> {
  const fromItem = (line: PaidOrder['lines'][number]) =>
    ({ kind: 'order_item', orderId: order.orderId, orderItemId: line.id }) as const
  for (const line of order.lines) {
    if (line.kind === 'course' && line.course_id) {
      await grant(trx, {
        userId: order.userId,
        right: { kind: 'course', courseId: line.course_id },
        source: fromItem(line),
        startsAt: order.paidAt,
      })
    } else if (line.kind === 'service_package' && line.service_package_id) {
      await grant(trx, {
        userId: order.userId,
        right: { kind: 'service', servicePackageId: line.service_package_id },
        source: fromItem(line),
        startsAt: order.paidAt,
      })
    } else if (line.kind === 'plan' && line.plan_id && line.billing_cycle) {
      await startSubscription(trx, order, { planId: line.plan_id, billingCycle: line.billing_cycle })
    }
  }
}

async function startSubscription(trx: DB, order: PaidOrder, plan: { planId: string; billingCycle: BillingCycle }) {
  const fromStripe = Boolean(order.stripeSubscriptionId)
  // A card subscription starts with the free trial; a manually confirmed one runs for its billing period.
  const days = fromStripe ? TRIAL_DAYS : PERIOD_DAYS[plan.billingCycle]
  const renewsAt = new Date(order.paidAt.getTime() + days * DAY_MS)
  const inserted = await trx
    .insertInto('subscriptions')
    .values({
      user_id: order.userId,
      plan_id: plan.planId,
      billing_cycle: plan.billingCycle,
      status: fromStripe ? 'trialing' : 'active',
      order_id: order.orderId,
      stripe_subscription_id: order.stripeSubscriptionId,
      renews_at: renewsAt,
    })
    .onConflict((oc) => oc.columns(['order_id', 'plan_id']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) return
  await grant(trx, {
    userId: order.userId,
    right: { kind: 'premium' },
    source: { kind: 'subscription', subscriptionId: inserted.id },
    startsAt: order.paidAt,
    endsAt: premiumEndsAt(renewsAt),
  })
}
