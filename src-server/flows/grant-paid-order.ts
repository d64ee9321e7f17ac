// The rights a paid order gives its buyer, recorded in the access ledger: a course grant per course line, a service
// grant per business-service line, and per plan line a subscription (subscriptions.ts) with its Premium grant. Called by orders/ inside the payment's transaction; idempotent (a second call for the
// same order adds nothing).
import type { BillingCycle, CartItemKind } from '../../db/types.ts'
import { grant, grantAll } from '../access/ledger.ts'
import type { DB } from '../kernel/db.ts'
import { startSubscription } from '../subscriptions/repository.ts'
import { fulfilGiftOrder } from './gift-delivery.ts'
import { emitEnrolmentGranted } from './webhook-events.ts'

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

export async function grantForPaidOrder(trx: DB, order: PaidOrder): Promise<void> {
  // A gift enrols its recipient when they claim it, never the buyer (issue 32, flows/gift-delivery.ts).
  if (await fulfilGiftOrder(trx, order.orderId, order.paidAt)) return
  const fromItem = (line: PaidOrder['lines'][number]) =>
    ({ kind: 'order_item', orderId: order.orderId, orderItemId: line.id }) as const
  // Every course line at once: their courses are locked together, in one order (access/ledger.ts grantAll).
  const courseLines = order.lines.filter((line) => line.kind === 'course' && line.course_id)
  const granted = await grantAll(
    trx,
    courseLines.map((line) => ({
      userId: order.userId,
      right: { kind: 'course', courseId: line.course_id as string },
      source: fromItem(line),
      startsAt: order.paidAt,
    })),
  )
  for (const [index, line] of courseLines.entries()) {
    const given = granted[index]
    if (!given?.created) continue
    await emitEnrolmentGranted(
      trx,
      line.course_id as string,
      { id: given.id, source: 'order_item' },
      { learnerId: order.userId, orderId: order.orderId, orderItemId: line.id },
    )
  }
  for (const line of order.lines) {
    if (line.kind === 'service_package' && line.service_package_id) {
      await grant(trx, {
        userId: order.userId,
        right: { kind: 'service', servicePackageId: line.service_package_id },
        source: fromItem(line),
        startsAt: order.paidAt,
      })
    } else if (line.kind === 'plan' && line.plan_id && line.billing_cycle) {
      await startSubscription(trx, {
        userId: order.userId,
        orderId: order.orderId,
        orderItemId: line.id,
        planId: line.plan_id,
        billingCycle: line.billing_cycle,
        stripeSubscriptionId: order.stripeSubscriptionId,
        paidAt: order.paidAt,
      })
    }
  }
}
