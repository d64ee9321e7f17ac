// Checkout recovery (issue 32): a buyer who ticked the reminder at checkout gets one e-mail when that checkout is
// left (a card session expired, a PayPal or bank order unpaid for 24 hours), unless they bought anything since or
// were reminded in the last week; it links to a page that puts the order's lines back in the cart, and carries a
// List-Unsubscribe address. The scheduled sweep (jobs/registry.ts 'cart-reminders.send') settles each opt-in once.
import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import { restoreItems } from '../cart/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { oneClickUnsubscribeUrl } from '../mail/unsubscribe.ts'
import { ORDER_NOT_FOUND } from '../orders/pending.ts'
import { findBuyerOrder, listOrderLines } from '../orders/repository.ts'
import { isPaidStatus } from '../orders/transitions.ts'
import type { StripeApi } from '../payments/stripe.ts'
import {
  type DueReminder,
  findDueReminder,
  listDueReminders,
  remindedRecently,
  settle,
  unsubscribe,
} from '../promotions/cart-reminders.ts'
import { cancelPendingOrder } from './abandoned-checkouts.ts'

export const CART_REMINDER_MESSAGES = {
  unsubscribed: 'You will get no more cart reminders for the checkouts you started.',
  badUnsubscribeLink: 'This unsubscribe link is not valid.',
  alreadyBought: 'That order was paid: there is nothing to restore.',
  awaitingTransfer: 'That order is waiting for your bank transfer: see it in My Account.',
} as const

/** The sweep: each due opt-in is settled once (sent, bought since, or already reminded). Returns how many were sent. */
export async function sendCartReminders(db: DB, publicUrl: string, now = clock.now()): Promise<number> {
  let sent = 0
  for (const due of await listDueReminders(db, now)) {
    if (await db.transaction().execute((trx) => remind(trx, due, publicUrl, now))) sent++
  }
  return sent
}

/**
 * Stripe's checkout.session.expired, in the event's transaction (apply-stripe-event.ts): the order's reminder, if the
 * buyer ticked it and it is still unsettled, is settled now and its e-mail queued in the outbox (out within minutes,
 * not at the next sweep). The event is recorded in the same transaction, so a redelivery changes nothing.
 */
export async function remindAboutLeftCheckout(db: DB, orderId: string, publicUrl: string, now = clock.now()) {
  const due = await findDueReminder(db, orderId, now)
  return due ? remind(db, due, publicUrl, now) : false
}

/** Settles one due opt-in once (a conditional update) and queues its e-mail when that is the outcome; true if sent. */
async function remind(db: DB, due: DueReminder, publicUrl: string, now: Date): Promise<boolean> {
  if (due.bought_since) {
    await settle(db, due.id, 'bought', now)
    return false
  }
  if (await remindedRecently(db, due.user_id, now)) {
    await settle(db, due.id, 'duplicate', now)
    return false
  }
  const settled = await settle(db, due.id, 'sent', now)
  if (!settled?.unsubscribeToken) return false // another sweep or the event got it
  const origin = publicUrl.replace(/\/$/, '')
  const lines = await listOrderLines(db, due.order_id)
  const titles = lines.map((line) => `- ${line.title}`).join('\n')
  const unsubscribeUrl = oneClickUnsubscribeUrl(origin, settled.unsubscribeToken)
  await enqueueMail(db, {
    kind: 'cart_reminder',
    to: due.email,
    subject: 'You left something in your cart',
    text: `Hi ${due.first_name || 'there'},\n\nYou asked us to remind you about your checkout. It was not completed:\n\n${titles}\n\nPick up where you left off (your cart is filled again): ${origin}/cart/restore?order=${due.order_id}\n\nThis is the only reminder we send about it. No more reminders: ${unsubscribeUrl}`,
    listUnsubscribe: unsubscribeUrl,
  })
  return true
}

/** The reminder's link: the order's lines back in the buyer's cart (a pending PayPal or bank order is cancelled). */
export async function restoreCart(db: DB, stripe: StripeApi | null, userId: string, orderId: string) {
  const order = await findBuyerOrder(db, orderId, userId)
  if (!order) throw new DomainError('not_found', ORDER_NOT_FOUND)
  if (isPaidStatus(order.status)) throw new DomainError('conflict', CART_REMINDER_MESSAGES.alreadyBought)
  if (order.status === 'awaiting_transfer') throw new DomainError('conflict', CART_REMINDER_MESSAGES.awaitingTransfer)
  if (order.status === 'pending') {
    if (order.method === 'card') throw new DomainError('conflict', PAYMENT_MESSAGES.checkoutInProgress)
    // The cancel gives a PayPal order's lines back; a bank order's are put back below, as the e-mail promised.
    await cancelPendingOrder(db, stripe, userId, orderId)
  }
  const currency = order.currency === 'GBP' || order.currency === 'USD' ? order.currency : null
  await restoreItems(db, userId, await listOrderLines(db, orderId), currency)
  return { restored: true }
}

export async function unsubscribeFromReminders(db: DB, token: string) {
  if (!(await unsubscribe(db, token))) throw new DomainError('not_found', CART_REMINDER_MESSAGES.badUnsubscribeLink)
  return { message: CART_REMINDER_MESSAGES.unsubscribed }
}
