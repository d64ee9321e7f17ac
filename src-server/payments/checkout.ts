// Starting a checkout. The client chooses only the currency group of its cart and the method; orders/ builds the
// order from the cart and the catalogue, and this asks Stripe, PayPal or the bank details for the next step.
import type { Currency } from '../../src-shared/money.ts'
import { PAYMENT_MESSAGES, type PaymentMethodValue } from '../../src-shared/schemas/cart.ts'
import { hasHadSubscription, liveSubscriptionOf } from '../access/subscriptions.ts'
import { listCartLines } from '../cart/lines.ts'
import type { DB } from '../db.ts'
import { DomainError } from '../errors.ts'
import { attachStripeSession, type CreatedOrder, createFromCart } from '../orders/create.ts'
import { markFailed } from '../orders/pending.ts'
import { allowAttempt, type RateLimiter, type RateRule } from '../security/rate-limit.ts'
import { bankDetailsFor } from './bank-details.ts'
import { checkoutSessionParams } from './checkout-session.ts'
import type { PaymentsConfig } from './config.ts'
import { paypalMeLink } from './paypal.ts'
import type { StripeApi } from './stripe.ts'

/** Each start creates an order: generous for a shopper, tight for a script. */
const CHECKOUT_RULE: RateRule = { max: 20, windowMs: 10 * 60_000 }

export interface CheckoutDeps {
  db: DB
  payments: PaymentsConfig
  publicUrl: string
  limiter: RateLimiter
  /** Told when the rate limiter cannot be reached (the checkout is then allowed). */
  onLimiterError?: (error: unknown) => void
}

export async function startCheckout(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  input: { currency: Currency; method: PaymentMethodValue },
) {
  const { db, payments } = deps
  if (!(await allowAttempt(deps.limiter, CHECKOUT_RULE, `checkout:${buyer.id}`, deps.onLimiterError))) {
    throw new DomainError('rate_limited', PAYMENT_MESSAGES.tooManyCheckouts)
  }
  if (input.method === 'card' && !payments.stripe) {
    throw new DomainError('precondition', PAYMENT_MESSAGES.cardNotConfigured)
  }
  if (input.method === 'paypal' && !payments.paypalMeUrl) {
    throw new DomainError('precondition', PAYMENT_MESSAGES.paypalNotConfigured)
  }
  const lines = await listCartLines(db, buyer.id)
  const buysPlan = lines.some((line) => line.kind === 'plan' && line.currency === input.currency)
  // One live subscription per user, whatever the client sends (fulfilment keeps it so under races too).
  if (buysPlan && (await liveSubscriptionOf(db, buyer.id))) throw new DomainError('conflict', PAYMENT_MESSAGES.hasPlan)
  const trial = !(await hasHadSubscription(db, buyer.id))
  const order = await createFromCart(db, { userId: buyer.id, ...input, referencePrefix: payments.referencePrefix })
  const summary = {
    orderId: order.id,
    reference: order.reference,
    totalMinor: order.totalMinor,
    currency: order.currency,
  }

  if (input.method === 'bank_transfer') {
    return { method: 'bank_transfer' as const, ...summary, bank: bankDetailsFor(payments.bank, order.currency) }
  }
  if (input.method === 'paypal') {
    const url = paypalMeLink(payments.paypalMeUrl!, order.totalMinor, order.currency)
    return { method: 'paypal' as const, ...summary, url }
  }
  try {
    const url = await openStripeCheckout(db, payments.stripe!, order, buyer.email, deps.publicUrl, trial)
    return { method: 'card' as const, ...summary, url }
  } catch (error) {
    // The order never reached a payment page: it fails, and the cart keeps its lines for another try.
    await markFailed(db, order.id)
    throw error
  }
}

async function openStripeCheckout(
  db: DB,
  stripe: StripeApi,
  order: CreatedOrder,
  email: string,
  publicUrl: string,
  trial: boolean,
) {
  const params = checkoutSessionParams(order, email, publicUrl, { trial })
  const session = await stripe.createCheckoutSession(params, `order-${order.id}`).catch((error: unknown) => {
    throw new DomainError('upstream', PAYMENT_MESSAGES.sessionFailed, { cause: error })
  })
  await attachStripeSession(db, order.id, session.id)
  if (!session.url) throw new DomainError('upstream', PAYMENT_MESSAGES.noCheckoutUrl)
  return session.url
}
