// The order state machine: every status change an order may make, in one table, and the one function that writes
// a status. Each transition names the states it may leave from; anything else is refused by the UPDATE itself
// (`where status in from`), so two racing callers can never both move the same order.

import type { Updateable } from 'kysely'
import type { Database, OrderStatus } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export const ORDER_TRANSITIONS = {
  /** 'I've Made the Transfer': a bank-transfer order now waits for the money. */
  awaitTransfer: { from: ['pending'], to: 'awaiting_transfer' },
  /** Stripe took the money: whatever happened to the unpaid order meanwhile, it is paid. */
  payByStripe: { from: ['pending', 'awaiting_transfer', 'failed', 'cancelled', 'expired'], to: 'paid' },
  /** Staff confirm a PayPal or bank payment; a cancelled order stays cancelled. */
  payByStaff: { from: ['pending', 'awaiting_transfer', 'failed'], to: 'paid' },
  /** A cart whose total is 0: completed at once, no rail. */
  payFree: { from: ['pending'], to: 'paid' },
  /** A card payment that could not start, or that Stripe reports failed. */
  fail: { from: ['pending'], to: 'failed' },
  /** Staff cancel an unpaid order (money taken is given back by a refund instead). */
  cancel: { from: ['pending', 'awaiting_transfer', 'failed'], to: 'cancelled' },
  /** The buyer cancels their pending order from the cart page or /account. */
  cancelByBuyer: { from: ['pending'], to: 'cancelled' },
  /** Checkout started again with another cart or rail: the cart's old pending order gives way to the new one. */
  replace: { from: ['pending'], to: 'cancelled' },
  /** A card checkout left unpaid for 24 hours, or Stripe expired its session. */
  expire: { from: ['pending'], to: 'expired' },
  /**
   * A PayPal or bank-transfer order still unpaid after its lifetime (flows/abandoned-checkouts.ts), whether or not the
   * buyer said they made the transfer: its coupon use and the buyer's cart come free again.
   */
  expireUnpaidTransfer: { from: ['pending', 'awaiting_transfer'], to: 'expired' },
  /** Some lines (or part of the amount) given back. */
  refundPartly: { from: ['paid', 'partially_refunded'], to: 'partially_refunded' },
  /** Everything captured given back. */
  refundFully: { from: ['paid', 'partially_refunded', 'disputed'], to: 'refunded' },
  /** The buyer's bank disputes the card payment: access is withheld until it is decided. */
  dispute: { from: ['paid', 'partially_refunded'], to: 'disputed' },
  /** Dispute won, nothing refunded before it. */
  winDispute: { from: ['disputed'], to: 'paid' },
  /** Dispute won on an order that had lines refunded before it. */
  winDisputeAfterRefund: { from: ['disputed'], to: 'partially_refunded' },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus }>

export type OrderTransition = keyof typeof ORDER_TRANSITIONS

/** Money was taken for these (whatever happened after). */
export const PAID_STATUSES: readonly OrderStatus[] = ['paid', 'partially_refunded', 'refunded', 'disputed']

/** Staff may give money back from these (a disputed order waits for the dispute; a refunded one has nothing left). */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = ['paid', 'partially_refunded']

export function isPaidStatus(status: OrderStatus): boolean {
  return PAID_STATUSES.includes(status)
}

export function canTransition(status: OrderStatus, transition: OrderTransition): boolean {
  return (ORDER_TRANSITIONS[transition].from as readonly OrderStatus[]).includes(status)
}

type Changes = Partial<
  Pick<
    Updateable<Database['orders']>,
    | 'paid_at'
    | 'cancelled_at'
    | 'expired_at'
    | 'status_changed_by'
    | 'stripe_subscription_id'
    | 'stripe_payment_intent_id'
    | 'captured_minor'
    | 'tax_minor'
    | 'tax_lines'
    | 'total_minor'
  >
>

/** Applies a transition; false when the order was not in a state it may leave from (nothing changed). */
export async function moveOrder(
  db: DB,
  orderId: string,
  transition: OrderTransition,
  changes: Changes = {},
): Promise<boolean> {
  const { from, to } = ORDER_TRANSITIONS[transition]
  const result = await db
    .updateTable('orders')
    .set({ ...changes, status: to, updated_at: clock.now() })
    .where('id', '=', orderId)
    .where('status', 'in', from)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
