// Pending orders that never got paid: the buyer resumes or cancels one from /account, a new checkout retires the
// cart's old one, and a scheduled job expires card checkouts left for 24 hours. A card order's Stripe session is
// expired through the API first, so the old page can no longer take money for an order we closed; a session that
// turns out paid meanwhile is paid through the usual exactly-once path instead.

import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import type { Actor } from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { expire, expireUnpaidTransfer, ORDER_NOT_FOUND } from '../orders/pending.ts'
import {
  findBuyerOrder,
  findOrderForStaff,
  listAbandonedCardOrders,
  listUnpaidTransferOrders,
} from '../orders/repository.ts'
import type { StripeApi } from '../payments/stripe.ts'
import { cancelByBuyer, replacePendingOrder } from './cart-order.ts'
import { isSessionPaid, paidPaymentOf } from './checkout-session.ts'
import { markPaid } from './pay-order.ts'
import { cancelByStaff } from './staff-order-actions.ts'

export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000
/**
 * A PayPal or bank-transfer order unpaid for 7 days expires (decision 0051): a coupon use it holds is given back and a
 * limited code is not blocked for ever by an order nobody pays. A transfer arriving later is refunded by staff.
 */
export const TRANSFER_ORDER_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000

type SessionOutcome = 'closed' | 'paid'

/** Closes the order's Stripe session; 'paid' when it had been paid (the order is then paid here). */
async function closeSession(
  db: DB,
  stripe: StripeApi | null,
  order: { id: string; stripe_session_id: string | null },
): Promise<SessionOutcome> {
  if (!order.stripe_session_id || !stripe) return 'closed'
  const session = await stripe.expireCheckoutSession(order.stripe_session_id).catch((error: unknown) => {
    throw new DomainError('upstream', PAYMENT_MESSAGES.stripeUnavailable, { cause: error })
  })
  if (!isSessionPaid(session)) return 'closed'
  await markPaid(db, order.id, paidPaymentOf(session))
  return 'paid'
}

/** The reused order's hosted page while Stripe keeps it open; null once it closed (the order then expires). */
export async function openSessionUrl(
  db: DB,
  stripe: StripeApi,
  order: { id: string; stripeSessionId: string | null },
): Promise<string | null> {
  if (!order.stripeSessionId) return null
  const session = await stripe.retrieveCheckoutSession(order.stripeSessionId).catch((error: unknown) => {
    throw new DomainError('upstream', PAYMENT_MESSAGES.sessionFailed, { cause: error })
  })
  if (session.status === 'open' && session.url) return session.url
  // Paid meanwhile: the webhook (or the success page) pays the order; nothing to open.
  if (session.status === 'complete') throw new DomainError('conflict', PAYMENT_MESSAGES.alreadyPaid)
  await expire(db, order.id)
  return null
}

/**
 * A new checkout of the cart (another rail, changed lines): the old pending order gives way, and the cart stays as
 * the buyer left it (nothing of the old order comes back into it: decision 0145).
 */
export async function retirePendingOrder(
  db: DB,
  stripe: StripeApi | null,
  order: { id: string; stripe_session_id: string | null },
): Promise<void> {
  if ((await closeSession(db, stripe, order)) === 'paid') return
  await replacePendingOrder(db, order.id)
}

/** /account → Resume payment: the pending card order's Stripe page again, while it is open. */
export async function resumeCheckout(db: DB, stripe: StripeApi | null, userId: string, orderId: string) {
  const order = await findBuyerOrder(db, orderId, userId)
  if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
  if (order.status !== 'pending' || order.method !== 'card' || !stripe) {
    throw new DomainError('invalid', PAYMENT_MESSAGES.notResumable)
  }
  const url = await openSessionUrl(db, stripe, { id: order.id, stripeSessionId: order.stripe_session_id })
  if (!url) throw new DomainError('conflict', PAYMENT_MESSAGES.checkoutExpired)
  return { url }
}

/** /account or the cart page → Cancel: the pending order closes (a PayPal order's lines return to the cart). */
export async function cancelPendingOrder(db: DB, stripe: StripeApi | null, userId: string, orderId: string) {
  const order = await findBuyerOrder(db, orderId, userId)
  if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
  if (order.status !== 'pending') throw new DomainError('invalid', PAYMENT_MESSAGES.notCancellable)
  if ((await closeSession(db, stripe, order)) === 'paid') {
    throw new DomainError('conflict', PAYMENT_MESSAGES.alreadyPaid)
  }
  await cancelByBuyer(db, userId, orderId)
  return { id: orderId }
}

/**
 * Admin → Orders → Cancel. A pending card order's Stripe page is closed first, as the buyer's own cancel does, so it
 * can no longer take money for an order staff cancelled; one paid meanwhile is paid instead and the cancel refused
 * (issue 19: a payment never lands on an order staff had cancelled through a page left open). Stripe unreachable:
 * nothing is cancelled and staff can retry.
 */
export async function cancelOrderByStaff(db: DB, stripe: StripeApi | null, orderId: string, actor: Actor) {
  const order = await findOrderForStaff(db, orderId)
  if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
  if (order.status === 'pending' && (await closeSession(db, stripe, order)) === 'paid') {
    throw new DomainError('conflict', PAYMENT_MESSAGES.alreadyPaid)
  }
  await cancelByStaff(db, orderId, actor)
}

/**
 * The scheduled job: card orders pending for 24 hours expire (their sessions expired at Stripe first), and PayPal and
 * bank-transfer orders unpaid for 7 days. An order whose session cannot be reached now is left for the next run.
 * Returns how many expired.
 */
export async function expireAbandonedCheckouts(
  deps: { db: DB; stripe: StripeApi | null; log?: { warn(obj: object, msg: string): void } },
  now = clock.now(),
): Promise<number> {
  const orders = await listAbandonedCardOrders(deps.db, new Date(now.getTime() - CHECKOUT_LIFETIME_MS))
  let expired = 0
  for (const order of orders) {
    try {
      if ((await closeSession(deps.db, deps.stripe, order)) === 'paid') continue
      if (await expire(deps.db, order.id)) expired++
    } catch (error) {
      deps.log?.warn({ err: error, orderId: order.id }, 'could not expire an abandoned checkout; retried next run')
    }
  }
  for (const order of await listUnpaidTransferOrders(deps.db, new Date(now.getTime() - TRANSFER_ORDER_LIFETIME_MS))) {
    if (await expireUnpaidTransfer(deps.db, order.id)) expired++
  }
  return expired
}
