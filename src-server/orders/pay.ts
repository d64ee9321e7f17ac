// Paying an order, exactly once: the order row is locked and only an order the transition table lets move to
// paid is fulfilled, so a webhook, its retries, the success page and staff can all race safely. The payment, the
// buyer's access, the service orders, the cart clean-up and the receipt commit together or not at all.
import { grantForPaidOrder } from '../access/grants.ts'
import { removePurchasedItems } from '../cart/repository.ts'
import type { DB } from '../db.ts'
import { openServiceOrders } from '../service-orders/open.ts'
import { inTransaction, lockOrder } from './lock.ts'
import { sendReceipt } from './receipt.ts'
import { listOrderLines } from './repository.ts'
import { canTransition, moveOrder } from './transitions.ts'

export interface Payment {
  /** Who says it is paid: Stripe (money taken, so any unpaid state) or a staff member (not a cancelled order). */
  source: 'stripe' | 'staff'
  actorId?: string
  stripeSubscriptionId?: string | null
}

export type PayResult = 'fulfilled' | 'already_paid' | 'not_found' | 'not_payable'

/** Runs in the caller's transaction when given one (so staff can audit in the same commit), else in its own. */
export async function markPaid(db: DB, orderId: string, payment: Payment): Promise<PayResult> {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId)
    if (!order) return 'not_found'
    if (order.status === 'paid') return 'already_paid'
    const transition = payment.source === 'stripe' ? 'payByStripe' : 'payByStaff'
    if (!canTransition(order.status, transition)) return 'not_payable'

    const paidAt = new Date()
    const subscriptionId = payment.stripeSubscriptionId ?? null
    await moveOrder(trx, order.id, transition, {
      paid_at: paidAt,
      status_changed_by: payment.actorId ?? null,
      ...(subscriptionId ? { stripe_subscription_id: subscriptionId } : {}),
    })
    const lines = await listOrderLines(trx, order.id)
    const purchase = { userId: order.user_id, orderId: order.id, lines }
    await grantForPaidOrder(trx, { ...purchase, stripeSubscriptionId: subscriptionId, paidAt })
    await openServiceOrders(trx, purchase)
    // The paid lines leave the cart (lines of another currency stay).
    await removePurchasedItems(
      trx,
      order.user_id,
      lines.map((line) => line.item_key),
    )
    await sendReceipt(trx, order, lines)
    return 'fulfilled'
  })
}
