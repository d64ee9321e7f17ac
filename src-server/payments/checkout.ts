// Builds the Stripe Checkout Session of an order: mode payment for one-off items; mode subscription with
// recurring price data (monthly or yearly, 7-day trial) when the order holds a plan or a monthly package.

import type Stripe from 'stripe'
import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import { DomainError } from '../errors.ts'
import type { CreatedOrder } from '../orders/create.ts'

export const TRIAL_PERIOD_DAYS = 7

export function checkoutSessionParams(
  order: CreatedOrder,
  customerEmail: string,
  publicUrl: string,
): Stripe.Checkout.SessionCreateParams {
  const intervals = new Set(order.lines.map((line) => line.recurringInterval).filter(Boolean))
  if (intervals.size > 1) throw new DomainError('invalid', PAYMENT_MESSAGES.mixedIntervals)
  const subscription = intervals.size === 1
  const base = publicUrl.replace(/\/$/, '')
  const metadata = { orderId: order.id, reference: order.reference }
  return {
    mode: subscription ? 'subscription' : 'payment',
    customer_email: customerEmail,
    client_reference_id: order.id,
    metadata,
    success_url: `${base}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/cart`,
    line_items: order.lines.map((line) => ({
      quantity: 1,
      price_data: {
        currency: order.currency.toLowerCase(),
        unit_amount: line.priceMinor,
        product_data: { name: line.title, ...(line.detail ? { description: line.detail } : {}) },
        ...(line.recurringInterval ? { recurring: { interval: line.recurringInterval } } : {}),
      },
    })),
    ...(subscription
      ? { subscription_data: { trial_period_days: TRIAL_PERIOD_DAYS, metadata } }
      : { payment_intent_data: { metadata } }),
  }
}

/** Paid, or nothing to pay yet (a subscription in its trial). */
export function isSessionPaid(session: Pick<Stripe.Checkout.Session, 'status' | 'payment_status'>): boolean {
  return session.status === 'complete' && ['paid', 'no_payment_required'].includes(session.payment_status)
}

export function orderIdOf(session: Pick<Stripe.Checkout.Session, 'metadata' | 'client_reference_id'>) {
  return session.metadata?.orderId ?? session.client_reference_id ?? null
}

export function subscriptionIdOf(session: Pick<Stripe.Checkout.Session, 'subscription'>): string | null {
  const sub = session.subscription
  if (!sub) return null
  return typeof sub === 'string' ? sub : sub.id
}
