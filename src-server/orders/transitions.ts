// The order state machine: every status change an order may make, in one table, and the one function that writes
// a status. Each transition names the states it may leave from; anything else is refused by the UPDATE itself
// (`where status in from`), so two racing callers can never both move the same order.
import type { Database, OrderStatus } from '../../db/types.ts'
import type { DB } from '../db.ts'

export const ORDER_TRANSITIONS = {
  /** 'I've Made the Transfer': a bank-transfer order now waits for the money. */
  awaitTransfer: { from: ['pending'], to: 'awaiting_transfer' },
  /** Stripe took the money: whatever happened to the order meanwhile, it is paid. */
  payByStripe: { from: ['pending', 'awaiting_transfer', 'failed', 'cancelled'], to: 'paid' },
  /** Staff confirm a PayPal or bank payment; a cancelled order stays cancelled. */
  payByStaff: { from: ['pending', 'awaiting_transfer', 'failed'], to: 'paid' },
  /** A card payment that could not start, or that Stripe reports failed or expired. */
  fail: { from: ['pending'], to: 'failed' },
  /** Staff cancel an unpaid order (refunds of paid orders are another transition). */
  cancel: { from: ['pending', 'awaiting_transfer', 'failed'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus }>

export type OrderTransition = keyof typeof ORDER_TRANSITIONS

export function canTransition(status: OrderStatus, transition: OrderTransition): boolean {
  return (ORDER_TRANSITIONS[transition].from as readonly OrderStatus[]).includes(status)
}

type Changes = Partial<
  Pick<Database['orders'], 'paid_at' | 'cancelled_at' | 'status_changed_by' | 'stripe_subscription_id'>
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
    .set({ ...changes, status: to, updated_at: new Date() })
    .where('id', '=', orderId)
    .where('status', 'in', from)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
