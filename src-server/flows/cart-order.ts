// A cart's pending order: orders/ snapshots the lines the cart hands it (and, for PayPal, the cart lets them go).

import { removePurchasedItems, restoreItems } from '../cart/repository.ts'
import type { DB } from '../kernel/db.ts'
import * as orders from '../orders/create.ts'
import * as pending from '../orders/pending.ts'
import { bundleOrderLines } from '../promotions/bundles.ts'
import { listCartLines } from './cart-lines.ts'
import { dropCodeCoveringNothing } from './coupon-cart.ts'
import { orderCoupon } from './coupon-checkout.ts'

/**
 * The cart's lines as an order takes them: a bundle (one cart line) becomes one line per course, each with its share
 * of the bundle price (allocated once, here, and stored on the order's lines), all keyed by the bundle's cart line.
 */
async function orderableLines(db: DB, userId: string): Promise<orders.OrderableLine[]> {
  const lines: orders.OrderableLine[] = []
  for (const line of await listCartLines(db, userId)) {
    if (line.kind !== 'bundle' || !line.bundleId) {
      lines.push(line)
      continue
    }
    const expanded = await bundleOrderLines(db, line.bundleId)
    for (const course of expanded.lines) {
      lines.push({
        kind: 'course',
        key: line.key,
        title: course.title,
        detail: course.detail,
        priceMinor: course.priceMinor,
        currency: expanded.bundle.currency,
        recurringInterval: null,
        billingCycle: null,
        courseId: course.courseId,
        packageId: null,
        planId: null,
        bundle: { id: expanded.bundle.id, title: expanded.bundle.title },
      })
    }
  }
  return lines
}
/**
 * An order's lines leave the cart (paid, awaiting a transfer, or paid away from the site), and the cart's code with
 * them when nothing left qualifies for it.
 */
export async function takeOutOfCart(db: DB, userId: string, itemKeys: readonly string[]): Promise<void> {
  await removePurchasedItems(db, userId, itemKeys)
  await dropCodeCoveringNothing(db, userId)
}

const cart: orders.OrderCart & pending.PendingCart = {
  lines: orderableLines,
  takeOut: takeOutOfCart,
  giveBack: restoreItems,
}

export type NewCartOrder = Omit<orders.NewOrder, 'cart'>

/** The cart's pending order in that currency: reused when it holds the same lines, or the order in the way. */
export function openCartOrder(db: DB, input: NewCartOrder) {
  return orders.openCartOrder(db, { ...input, cart, coupon: orderCoupon })
}

/** Like openCartOrder, for callers that have no way to retire a pending order in the way. */
export function createFromCart(db: DB, input: NewCartOrder) {
  return orders.createFromCart(db, { ...input, cart, coupon: orderCoupon })
}

/** 'I've Made the Transfer': the order awaits the money and its lines leave the cart. */
export function awaitTransfer(db: DB, userId: string, orderId: string) {
  return pending.awaitTransfer(db, userId, orderId, cart)
}

/** Checkout started again with another cart or rail: the old pending order gives way; the cart stays as it is. */
export function replacePendingOrder(db: DB, orderId: string) {
  return pending.replacePendingOrder(db, orderId, cart)
}

/** The buyer cancels their pending order: a PayPal order's lines go back into the cart (decision 0145). */
export function cancelByBuyer(db: DB, userId: string, orderId: string) {
  return pending.cancelByBuyer(db, userId, orderId, cart)
}
