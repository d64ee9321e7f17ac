// What can happen to an order before it is paid: it waits for a bank transfer, its card payment fails or expires,
// the buyer cancels it or replaces it by another checkout, or staff cancel it. Each is one transition of
// transitions.ts. Calls to Stripe (expiring the session) are the caller's, made before these.

import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { OrderCart } from './create.ts'
import { lockOrder } from './lock.ts'
import { listOrderLines } from './repository.ts'
import { isPaidStatus, moveOrder } from './transitions.ts'

export const ORDER_NOT_FOUND = 'Order not found'

const orderCurrency = (order: { currency: string }) =>
  order.currency === 'GBP' || order.currency === 'USD' ? order.currency : null

/** An order line as the cart takes it back (listOrderLines' rows). */
export type ReturnedLine = Awaited<ReturnType<typeof listOrderLines>>[number]

/** What leaving the pending state does to the cart, handed in by the flow (flows/cart-order.ts). */
export interface PendingCart extends Pick<OrderCart, 'takeOut'> {
  /** Puts an order's lines back into the buyer's cart (a course held meanwhile is skipped). */
  giveBack(trx: DB, userId: string, lines: readonly ReturnedLine[], currency: 'USD' | 'GBP' | null): Promise<void>
}

/** 'I've Made the Transfer': the buyer's bank-transfer order now awaits the money and its lines leave the cart. */
export async function awaitTransfer(db: DB, userId: string, orderId: string, cart: PendingCart) {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId, userId)
    if (order?.method !== 'bank_transfer') throw new DomainError('not_found', ORDER_NOT_FOUND)
    const moved = await moveOrder(trx, order.id, 'awaitTransfer')
    const lines = await listOrderLines(trx, order.id)
    await cart.takeOut(
      trx,
      userId,
      lines.map((line) => line.item_key),
    )
    return { reference: order.reference, status: moved ? ('awaiting_transfer' as const) : order.status }
  })
}

/** A card payment that could not start, or that Stripe reports failed or expired. Only a pending order fails. */
export async function markFailed(db: DB, orderId: string): Promise<boolean> {
  return moveOrder(db, orderId, 'fail')
}

/**
 * Cancels an unpaid order; true when it changed (an order already cancelled stays so). A paid order cannot be
 * cancelled here: money taken is given back by a refund.
 */
export async function cancel(db: DB, orderId: string, actorId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId)
    if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
    if (isPaidStatus(order.status)) throw new DomainError('invalid', 'A paid order cannot be cancelled')
    if (order.status === 'cancelled') return false
    return moveOrder(trx, order.id, 'cancel', { cancelled_at: clock.now(), status_changed_by: actorId })
  })
}

/** A card checkout left unpaid (24 hours, or Stripe expired the session): true when it changed. */
export async function expire(db: DB, orderId: string): Promise<boolean> {
  return moveOrder(db, orderId, 'expire', { expired_at: clock.now() })
}

/** A PayPal or bank-transfer order left unpaid past its lifetime: true when it changed. */
export async function expireUnpaidTransfer(db: DB, orderId: string): Promise<boolean> {
  return moveOrder(db, orderId, 'expireUnpaidTransfer', { expired_at: clock.now() })
}

/**
 * Only a PayPal order took its lines out of the cart when it was made (it is paid away from the site). A pending card
 * or bank-transfer order left them there, so the cart already is what the buyer kept: a line they removed since must
 * not come back when the order closes (decision 0145: it was charged with the next checkout).
 */
const tookLinesOut = (order: { method: string }) => order.method === 'paypal'

/**
 * Checkout started again with another cart or rail: the old pending order gives way. The cart the buyer sees is the
 * truth at checkout start, so nothing of the old order is put back into it (decision 0145).
 */
export async function replacePendingOrder(db: DB, orderId: string, cart: PendingCart): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId)
    if (order?.status !== 'pending') return false
    const moved = await moveOrder(trx, order.id, 'replace', { cancelled_at: clock.now() })
    // Never reached for PayPal today (checkout asks the buyer to cancel that order first); kept so it stays right.
    if (moved && tookLinesOut(order)) {
      await cart.giveBack(trx, order.user_id, await listOrderLines(trx, order.id), orderCurrency(order))
    }
    return moved
  })
}

/**
 * The buyer cancels their pending order (cart page, /account). A PayPal order's lines go back into the cart; a card or
 * bank-transfer order's never left it, and lines removed since stay removed (decision 0145).
 */
export async function cancelByBuyer(db: DB, userId: string, orderId: string, cart: PendingCart): Promise<void> {
  await inTransaction(db, async (trx) => {
    const order = await lockOrder(trx, orderId, userId)
    if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
    if (order.status === 'cancelled') return
    const moved = await moveOrder(trx, order.id, 'cancelByBuyer', {
      cancelled_at: clock.now(),
      status_changed_by: userId,
    })
    if (!moved) throw new DomainError('invalid', PAYMENT_MESSAGES.notCancellable)
    const { source } = await trx
      .selectFrom('orders')
      .select('source')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    // A renewal order was never in the cart: nothing goes back.
    if (source === 'cart' && tookLinesOut(order)) {
      await cart.giveBack(trx, userId, await listOrderLines(trx, order.id), orderCurrency(order))
    }
  })
}
