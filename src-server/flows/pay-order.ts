// Paying an order, exactly once: the order row is locked and only an order the transition table lets move to
// paid is fulfilled, so a webhook, its retries, the success page and staff can all race safely. The payment, the
// buyer's access, the creators' shares, the service orders, the cart clean-up, the invoice number and the receipt commit together or
// not at all.

import type { TaxLine } from '../../db/types.ts'
import { lineNetMinor } from '../../src-shared/money.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { issueOrderInvoice } from '../orders/invoices.ts'
import { lockOrder } from '../orders/lock.ts'
import { sendReceipt } from '../orders/receipt.ts'
import { listOrderLines } from '../orders/repository.ts'
import { canTransition, isPaidStatus, moveOrder } from '../orders/transitions.ts'
import { giftOfOrder } from '../promotions/gifts.ts'
import { openServiceOrders } from '../service-orders/open.ts'
import { takeOutOfCart } from './cart-order.ts'
import { creditCreatorSales, holdCreatorsOfLines } from './creator-earnings.ts'
import { grantForPaidOrder } from './grant-paid-order.ts'
import { brandOfOrderLines } from './school-domain.ts'
import { emitBundlesPaid, emitCourseEvent, readSchoolsOfCourses } from './webhook-events.ts'

export interface Payment {
  /**
   * Who says it is paid: Stripe (money taken, so any unpaid state), a staff member (not a cancelled order), or
   * nobody needs to ('free': the total is 0).
   */
  source: 'stripe' | 'staff' | 'free'
  actorId?: string
  stripeSubscriptionId?: string | null
  stripePaymentIntentId?: string | null
  /** What Stripe took (the session's amount_total, tax included); the order's total when not given. */
  capturedMinor?: number
  /** The tax Stripe Tax computed within it, and per jurisdiction when Stripe's breakdown was read. */
  taxMinor?: number
  taxLines?: TaxLine[]
}

const TRANSITION_OF = { stripe: 'payByStripe', staff: 'payByStaff', free: 'payFree' } as const

export type PayResult = 'fulfilled' | 'already_paid' | 'not_found' | 'not_payable'

/** Runs in the caller's transaction when given one (so staff can audit in the same commit), else in its own. */
export async function markPaid(db: DB, orderId: string, payment: Payment): Promise<PayResult> {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId)
    if (!order) return 'not_found'
    if (isPaidStatus(order.status)) return 'already_paid'
    const transition = TRANSITION_OF[payment.source]
    if (!canTransition(order.status, transition)) return 'not_payable'

    const paidAt = clock.now()
    const subscriptionId = payment.stripeSubscriptionId ?? null
    const captured = payment.capturedMinor ?? order.total_minor
    const tax = payment.taxMinor ?? 0
    const lines = await listOrderLines(trx, order.id)
    const owners = await holdCreatorsOfLines(trx, lines)
    // The order's total becomes what was taken when Stripe added tax, or when a plan line in its free trial took
    // nothing (decision 0089); an untaxed order otherwise keeps its own total.
    const total = tax > 0 || lines.some((line) => line.free_trial) ? captured : order.total_minor
    await moveOrder(trx, order.id, transition, {
      paid_at: paidAt,
      status_changed_by: payment.actorId ?? null,
      captured_minor: captured,
      total_minor: total,
      ...(tax > 0 ? { tax_minor: tax } : {}),
      ...(tax > 0 && payment.taxLines?.length ? { tax_lines: JSON.stringify(payment.taxLines) } : {}),
      ...(subscriptionId ? { stripe_subscription_id: subscriptionId } : {}),
      ...(payment.stripePaymentIntentId ? { stripe_payment_intent_id: payment.stripePaymentIntentId } : {}),
    })
    const purchase = { userId: order.user_id, orderId: order.id, lines }
    // The courses' schools, for the order's webhook events below and in the grants: one read for every line.
    await readSchoolsOfCourses(
      trx,
      lines.flatMap((line) => (line.kind === 'course' && line.course_id ? [line.course_id] : [])),
    )
    await grantForPaidOrder(trx, { ...purchase, stripeSubscriptionId: subscriptionId, paidAt })
    await openServiceOrders(trx, { ...purchase, stripeSubscriptionId: subscriptionId, paidAt })
    await creditCreatorSales(trx, {
      orderId: order.id,
      currency: order.currency,
      paidAt,
      lines,
      owners,
      // Stripe took money: its fee on it is read after this commits (flows/processor-fees.ts).
      processorFeeDue: payment.source === 'stripe' && captured > 0,
    })
    // The paid lines leave the cart (lines of another currency stay), and its code when nothing left qualifies.
    await takeOutOfCart(
      trx,
      order.user_id,
      lines.map((line) => line.item_key),
    )
    for (const line of lines) {
      if (line.kind !== 'course' || !line.course_id) continue
      await emitCourseEvent(trx, line.course_id, 'order.paid', {
        orderId: order.id,
        orderItemId: line.id,
        learnerId: order.user_id,
        amountMinor: lineNetMinor(line),
        currency: order.currency,
      })
    }
    await emitBundlesPaid(trx, { id: order.id, userId: order.user_id, currency: order.currency })
    await issueOrderInvoice(trx, order.id, paidAt)
    const brand = await brandOfOrderLines(trx, lines)
    // A gift's receipt names its recipient: the buyer is not enrolled (decision 0146).
    const gift = await giftOfOrder(trx, order.id)
    await sendReceipt(
      trx,
      { ...order, total_minor: total },
      lines,
      brand,
      gift ? { recipientEmail: gift.recipient_email, sendAt: gift.send_at, paidAt } : null,
    )
    return 'fulfilled'
  })
}
