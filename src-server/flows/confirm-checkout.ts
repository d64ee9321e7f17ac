// The success page: asks Stripe about the session and, when it is paid, pays the order through the same
// exactly-once path as the webhook (whichever arrives first fulfils; the other finds it paid).

import { trialStartedText } from '../../src-shared/membership.ts'
import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { findOrderByStripeSession } from '../orders/repository.ts'
import type { PaymentsConfig } from '../payments/config.ts'
import { giftOfOrder } from '../promotions/gifts.ts'
import { trialOfOrder } from '../subscriptions/repository.ts'
import { isSessionPaid, orderIdOf, paidPaymentOf } from './checkout-session.ts'
import { markPaid } from './pay-order.ts'

export async function confirmCheckout(db: DB, payments: PaymentsConfig, userId: string, sessionId: string) {
  const stripe = payments.stripe
  if (!stripe) throw new DomainError('precondition', PAYMENT_MESSAGES.cardNotConfigured)
  const order = await findOrderByStripeSession(db, sessionId, userId)
  if (!order) throw new DomainError('not_found', PAYMENT_MESSAGES.noSession)
  const session = await stripe.retrieveCheckoutSession(sessionId).catch((error: unknown) => {
    throw new DomainError('upstream', PAYMENT_MESSAGES.processingError, { cause: error })
  })
  if (orderIdOf(session) !== order.id) throw new DomainError('not_found', PAYMENT_MESSAGES.noSession)
  let status = order.status
  let totalMinor = order.total_minor
  if (isSessionPaid(session)) {
    await markPaid(db, order.id, paidPaymentOf(session))
    status = 'paid'
    // Paid, the order's total is what Stripe took (tax included; nothing for a plan in its free trial).
    totalMinor = (await findOrderByStripeSession(db, sessionId, userId))?.total_minor ?? totalMinor
  }
  const trial = status === 'paid' ? await trialOfOrder(db, order.id) : undefined
  // A gift order gives the buyer nothing: the page says where the gift goes and when, not "your purchases are ready".
  const gift = await giftOfOrder(db, order.id)
  return {
    orderId: order.id,
    reference: order.reference,
    status,
    /** "Free trial started — first charge of $X on DATE" when the order started a trial (nothing was charged). */
    trialText: trial?.trial_ends_at
      ? trialStartedText(trial.amount_minor ?? 0, trial.currency ?? order.currency, trial.trial_ends_at)
      : null,
    totalMinor,
    currency: order.currency,
    gift: gift ? { recipientEmail: gift.recipient_email, sendAt: gift.send_at.toISOString() } : null,
  }
}
