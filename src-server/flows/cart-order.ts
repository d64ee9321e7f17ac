// A cart's pending order: orders/ snapshots the lines the cart hands it (and, for PayPal, the cart lets them go).
import { listCartLines } from '../cart/lines.ts'
import { removePurchasedItems, restoreItems } from '../cart/repository.ts'
import type { DB } from '../kernel/db.ts'
import * as orders from '../orders/create.ts'
import * as pending from '../orders/pending.ts'
import { orderCoupon } from './coupon-checkout.ts'

const cart: orders.OrderCart & pending.PendingCart = {
  lines: listCartLines,
  takeOut: removePurchasedItems,
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

/** Checkout started again with another cart or rail: the old pending order gives way, its lines stay in the cart. */
export function replacePendingOrder(db: DB, orderId: string) {
  return pending.replacePendingOrder(db, orderId, cart)
}

/** The buyer cancels their pending order: its lines go back into the cart. */
export function cancelByBuyer(db: DB, userId: string, orderId: string) {
  return pending.cancelByBuyer(db, userId, orderId, cart)
}
