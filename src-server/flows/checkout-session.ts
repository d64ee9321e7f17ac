// The Stripe Checkout Session of an order: mode payment for one-off items; mode subscription with recurring price
// data (monthly or yearly, the free trial) when the order holds a plan or a monthly package (never both: decision
// 0136). And what a session Stripe sends back says: whose order it is, whether it is paid, which subscription it started.
import type { TaxLine } from '../../db/types.ts'
import { TRIAL_DAYS } from '../../src-shared/constants.ts'
import { mixesPlanAndService, PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { CreatedOrder } from '../orders/create.ts'
import { findOrderByStripeSession } from '../orders/repository.ts'
import type { CheckoutSessionParams } from '../payments/stripe.ts'
import type { CheckoutSession } from '../payments/stripe-schemas.ts'
import type { Payment } from './pay-order.ts'

/**
 * Whether a card checkout with a plan starts the free trial: for a buyer who never had a plan (one free trial per user),
 * and not with a code on the plan: the code becomes the subscription's Stripe coupon, which takes the trial's place
 * (Stripe would count the code's months from the trial's start). The checkout (start-checkout.ts) and the payment
 * page's note (coupon-cart.ts `planTrial`) both ask this.
 */
export function cardTrialStarts(buyerNeverHadPlan: boolean, planHasCode: boolean): boolean {
  return buyerNeverHadPlan && !planHasCode
}

/**
 * `trial`: the buyer has never had a subscription (one free trial per user); `automaticTax`: STRIPE_TAX;
 * `planCoupon`: the Stripe coupon carrying a plan's discount (its stored share, for the coupon's duration): the plan
 * is then priced in full and the coupon takes its share off each invoice it covers.
 */
export function checkoutSessionParams(
  order: Pick<CreatedOrder, 'id' | 'reference' | 'currency' | 'lines'>,
  customerEmail: string,
  publicUrl: string,
  {
    trial = true,
    automaticTax = false,
    planCoupon,
  }: { trial?: boolean; automaticTax?: boolean; planCoupon?: string } = {},
): CheckoutSessionParams {
  const intervals = new Set(order.lines.map((line) => line.recurringInterval).filter(Boolean))
  if (intervals.size > 1) throw new DomainError('invalid', PAYMENT_MESSAGES.mixedIntervals)
  // One subscription per plan or service (decision 0136): startCheckout refuses such a cart first.
  if (mixesPlanAndService(order.lines)) throw new DomainError('conflict', PAYMENT_MESSAGES.planWithService)
  const subscription = intervals.size === 1
  const base = publicUrl.replace(/\/$/, '')
  const metadata = { orderId: order.id, reference: order.reference }
  // The subscription names its plan, so its events (and later plan changes) say which plan it is.
  const plan = order.lines.find((line) => line.kind === 'plan' && line.planId && line.billingCycle)
  const planMetadata: Record<string, string> = plan ? { planId: plan.planId!, billingCycle: plan.billingCycle! } : {}
  const buysPlan = order.lines.some((line) => line.kind === 'plan')
  // A recurring line's discount must go to Stripe as a coupon with its duration: a discounted unit amount would
  // discount every renewal.
  const recurringDiscount = order.lines.some((line) => line.recurringInterval && (line.discountMinor ?? 0) > 0)
  if (recurringDiscount && !planCoupon) throw new Error('a discounted plan needs its Stripe coupon')
  const unitAmount = (line: CreatedOrder['lines'][number]) =>
    line.recurringInterval && planCoupon ? line.priceMinor : line.priceMinor - (line.discountMinor ?? 0)
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
        // One-time lines are charged at their discounted price, the share of the coupon stored on the order line.
        unit_amount: unitAmount(line),
        product_data: { name: line.title, ...(line.detail ? { description: line.detail } : {}) },
        ...(line.recurringInterval ? { recurring: { interval: line.recurringInterval } } : {}),
      },
    })),
    // Stripe Tax computes the tax from the buyer's address; the webhook records what it charged.
    ...(automaticTax ? { automatic_tax: { enabled: true } } : {}),
    ...(subscription && planCoupon ? { discounts: [{ coupon: planCoupon }] } : {}),
    ...(subscription
      ? {
          subscription_data: {
            // The free trial is the membership's: a monthly service, never in the same checkout, pays its first month.
            ...(trial && buysPlan ? { trial_period_days: TRIAL_DAYS } : {}),
            metadata: { ...metadata, ...planMetadata },
          },
        }
      : { payment_intent_data: { metadata } }),
  }
}

/** Paid, or nothing to pay yet (a subscription in its trial). */
export function isSessionPaid(session: Pick<CheckoutSession, 'status' | 'payment_status'>): boolean {
  return session.status === 'complete' && ['paid', 'no_payment_required'].includes(session.payment_status)
}

/** The order a session names: our sessions carry it in metadata and as client_reference_id. */
export function orderIdOf(session: Pick<CheckoutSession, 'metadata' | 'client_reference_id'>): string | null {
  return session.metadata?.orderId ?? session.client_reference_id ?? null
}

export function paymentIntentIdOf(session: Pick<CheckoutSession, 'payment_intent'>): string | null {
  const intent = session.payment_intent
  if (!intent) return null
  return typeof intent === 'string' ? intent : intent.id
}

/** A paid session as orders/ records it: the payment intent, the amount taken and the tax Stripe computed. */
export function paidPaymentOf(session: CheckoutSession): Payment {
  return {
    source: 'stripe',
    stripeSubscriptionId: subscriptionIdOf(session),
    stripePaymentIntentId: paymentIntentIdOf(session),
    capturedMinor: session.amount_total ?? undefined,
    taxMinor: session.total_details?.amount_tax ?? 0,
    taxLines: taxLinesOf(session),
  }
}

/**
 * Stripe Tax's breakdown as invoice tax lines, one per jurisdiction and rate ("Sales Tax — California 15%"); empty
 * when the session carries no breakdown, or one that does not add up to its tax (the invoice then shows one line).
 */
export function taxLinesOf(session: Pick<CheckoutSession, 'total_details'>): TaxLine[] {
  const taxes = session.total_details?.breakdown?.taxes ?? []
  const lines = new Map<string, number>()
  for (const tax of taxes) {
    if (tax.amount <= 0) continue
    const { display_name, jurisdiction, percentage } = tax.rate
    const name = [
      display_name || 'Tax',
      jurisdiction ? ` — ${jurisdiction}` : '',
      percentage != null ? ` ${Number(percentage.toFixed(4))}%` : '',
    ].join('')
    lines.set(name, (lines.get(name) ?? 0) + tax.amount)
  }
  const result = [...lines].map(([name, amountMinor]) => ({ name, amountMinor }))
  const sum = result.reduce((total, line) => total + line.amountMinor, 0)
  return sum === (session.total_details?.amount_tax ?? 0) ? result : []
}

export function subscriptionIdOf(session: Pick<CheckoutSession, 'subscription'>): string | null {
  const sub = session.subscription
  if (!sub) return null
  return typeof sub === 'string' ? sub : sub.id
}

/**
 * The order of ours a session was opened for, or undefined when the session is not one this shop created (a
 * Payment Link on the same Stripe account, another app's checkout): its id must be the one stored on the order,
 * and it must name that order. `userId` limits it to that buyer's orders.
 */
export async function orderOfSession(
  db: DB,
  session: Pick<CheckoutSession, 'id' | 'metadata' | 'client_reference_id'>,
  userId?: string,
) {
  const order = await findOrderByStripeSession(db, session.id, userId)
  return order && orderIdOf(session) === order.id ? order : undefined
}
