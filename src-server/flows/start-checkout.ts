// Starting a checkout. The client chooses only the currency group of its cart, the method and the invoice details;
// orders/ builds (or reuses) the cart's one pending order, and this asks Stripe, PayPal or the bank details for the
// next step. A pending order of another rail or an older cart is retired first (its Stripe session expired); the cart
// stays as the buyer left it, and a cart that no longer comes to the total the page showed is refused (decision 0145).
import type { Currency } from '../../src-shared/money.ts'
import {
  type BillingDetails,
  type CheckoutMethodValue,
  mixesPlanAndService,
  PAYMENT_MESSAGES,
} from '../../src-shared/schemas/cart.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { attachStripeSession, type CreatedOrder, setFreeTrialLines } from '../orders/create.ts'
import { markFailed } from '../orders/pending.ts'
import { bankDetailsFor } from '../payments/bank-details.ts'
import type { PaymentsConfig } from '../payments/config.ts'
import { paypalMeLink } from '../payments/paypal.ts'
import { optIn as optInToReminder } from '../promotions/cart-reminders.ts'
import { planDurationOfOrder } from '../promotions/coupons.ts'
import { allowAttempt, type RateLimiter, type RateRule } from '../security/rate-limit.ts'
import { hasHadSubscription, liveSubscriptionOf } from '../subscriptions/repository.ts'
import { openSessionUrl, retirePendingOrder } from './abandoned-checkouts.ts'
import { sendBankDetails } from './bank-transfer-mail.ts'
import { listCartLines } from './cart-lines.ts'
import { openCartOrder } from './cart-order.ts'
import { cardTrialStarts, checkoutSessionParams } from './checkout-session.ts'
import { dropRefusedCode } from './coupon-cart.ts'
import { markPaid } from './pay-order.ts'
import { hostSchool } from './school-domain.ts'

/** Each start may create an order: generous for a shopper, tight for a script. */
const CHECKOUT_RULE: RateRule = { max: 20, windowMs: 10 * 60_000 }

export interface CheckoutDeps {
  db: DB
  payments: PaymentsConfig
  publicUrl: string
  limiter: RateLimiter
  /** Told when the rate limiter cannot be reached (the checkout is then allowed). */
  log?: { warn: (details: object, message: string) => void }
  /** The request, and the platform's address: on a school's own domain only its lines are paid (decision 0150). */
  req?: { host?: string }
  config?: { publicUrl: string }
}

export async function startCheckout(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  input: {
    currency: Currency
    method: CheckoutMethodValue
    billing?: BillingDetails
    remindMe?: boolean
    /** The total the payment page showed: a cart that now comes to another is refused (decision 0145). */
    shownTotalMinor?: number
  },
) {
  const { db, payments } = deps
  if (
    !(await allowAttempt(deps.limiter, CHECKOUT_RULE, `checkout:${buyer.id}`, (error) =>
      deps.log?.warn({ err: error }, 'rate limiter unavailable; checkout allowed'),
    ))
  ) {
    throw new DomainError('rate_limited', PAYMENT_MESSAGES.tooManyCheckouts)
  }
  if (input.method === 'card' && !payments.stripe) {
    throw new DomainError('precondition', PAYMENT_MESSAGES.cardNotConfigured)
  }
  if (input.method === 'paypal' && !payments.paypalMeUrl) {
    throw new DomainError('precondition', PAYMENT_MESSAGES.paypalNotConfigured)
  }
  const lines = await listCartLines(db, buyer.id)
  // A school's own domain sells that school's courses only: a cart holding others' is paid on the marketplace.
  const site = deps.req && deps.config ? await hostSchool(db, deps.config.publicUrl, deps.req.host) : null
  if (site && lines.some((line) => line.currency === input.currency && line.school !== site.slug)) {
    throw new DomainError('conflict', PAYMENT_MESSAGES.otherSellers)
  }
  // A cart that holds both anyway (filled before the cart refused it, or a cancelled order's lines put back).
  if (mixesPlanAndService(lines.filter((line) => line.currency === input.currency))) {
    throw new DomainError('conflict', PAYMENT_MESSAGES.planWithService)
  }
  const buysPlan = lines.some((line) => line.kind === 'plan' && line.currency === input.currency)
  // One live subscription per user, whatever the client sends (fulfilment keeps it so under races too).
  if (buysPlan && (await liveSubscriptionOf(db, buyer.id))) throw new DomainError('conflict', PAYMENT_MESSAGES.hasPlan)
  const trial = !(await hasHadSubscription(db, buyer.id))
  // A code refused now (used up meanwhile…) leaves the cart with the refusal, so the page can show the price without it.
  const open = () => cartOrder(deps, buyer.id, input).catch((error: unknown) => dropRefusedCode(db, buyer.id, error))
  let order = await open()
  if (input.method === 'card' && order.stripeSessionId) {
    const url = await openSessionUrl(db, payments.stripe!, order)
    if (url) return { method: 'card' as const, ...summaryOf(order), url }
    order = await open() // the old session had closed: a fresh order
  }
  const summary = summaryOf(order)
  // Checkout recovery (flows/checkout-recovery.ts): only with the buyer's tick, and never for a free order.
  if (input.remindMe === true && order.totalMinor > 0) await optInToReminder(db, order.id, buyer.id)
  if (order.totalMinor === 0) {
    // Free courses: enrolled at once, no rail and no Stripe.
    await markPaid(db, order.id, { source: 'free' })
    return { method: 'free' as const, ...summary }
  }

  if (input.method === 'bank_transfer') {
    return { method: 'bank_transfer' as const, ...summary, bank: bankDetailsFor(payments.bank, order.currency) }
  }
  if (input.method === 'paypal') {
    const url = paypalMeLink(payments.paypalMeUrl!, order.totalMinor, order.currency)
    return { method: 'paypal' as const, ...summary, url }
  }
  try {
    const url = await newStripeSession(db, payments, order, buyer.email, deps.publicUrl, trial)
    return { method: 'card' as const, ...summary, url }
  } catch (error) {
    // The order never reached a payment page: it fails, and the cart keeps its lines for another try.
    await markFailed(db, order.id)
    throw error
  }
}

/** The cart's pending order for this rail; one in the way (another rail, an older cart) is retired once. */
async function cartOrder(
  deps: CheckoutDeps,
  userId: string,
  input: { currency: Currency; method: CheckoutMethodValue; billing?: BillingDetails; shownTotalMinor?: number },
): Promise<CreatedOrder> {
  const bank = deps.payments.bank
  const request = {
    userId,
    ...input,
    referencePrefix: deps.payments.referencePrefix,
    // The bank details and reference go by e-mail too, so the buyer has them when making the transfer.
    onCreated:
      input.method === 'bank_transfer'
        ? (trx: DB, order: CreatedOrder) => sendBankDetails(trx, userId, order, bankDetailsFor(bank, order.currency))
        : undefined,
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const opened = await openCartOrder(deps.db, request)
    if (opened.kind === 'order') return opened.order
    if (opened.pending.method === 'paypal') throw new DomainError('conflict', PAYMENT_MESSAGES.paypalPending)
    await retirePendingOrder(deps.db, deps.payments.stripe, opened.pending)
  }
  throw new DomainError('conflict', PAYMENT_MESSAGES.checkoutInProgress)
}

function summaryOf(order: CreatedOrder) {
  return {
    orderId: order.id,
    reference: order.reference,
    totalMinor: order.totalMinor,
    currency: order.currency,
    reused: order.reused,
  }
}

async function newStripeSession(
  db: DB,
  payments: PaymentsConfig,
  order: CreatedOrder,
  email: string,
  url: string,
  trial: boolean,
) {
  const planCoupon = await stripePlanCoupon(db, payments, order)
  const params = checkoutSessionParams(order, email, url, {
    trial: cardTrialStarts(trial, planCoupon !== undefined),
    automaticTax: payments.stripeTax,
    planCoupon,
  })
  // Stripe charges a subscription's recurring lines nothing at a checkout that starts its free trial: those lines paid 0
  // (the order's invoice, its refunds and Premium's revenue say so).
  await setFreeTrialLines(db, order.id, Boolean(params.subscription_data?.trial_period_days))
  const session = await payments.stripe!.createCheckoutSession(params, `order-${order.id}`).catch((error: unknown) => {
    throw new DomainError('upstream', PAYMENT_MESSAGES.sessionFailed, { cause: error })
  })
  await attachStripeSession(db, order.id, session.id)
  if (!session.url) throw new DomainError('upstream', PAYMENT_MESSAGES.noCheckoutUrl)
  return session.url
}

/**
 * The Stripe coupon of a plan checkout: the plan line's stored share of the code's discount, for the code's
 * duration (first payment, N months, every renewal), made once per order (the idempotency key).
 */
async function stripePlanCoupon(db: DB, payments: PaymentsConfig, order: CreatedOrder) {
  const plan = order.lines.find((line) => line.recurringInterval && (line.discountMinor ?? 0) > 0)
  if (!plan) return undefined
  const coupon = await planDurationOfOrder(db, order.id)
  if (!coupon?.plan_duration) throw new DomainError('invalid', PAYMENT_MESSAGES.sessionFailed)
  const created = await payments
    .stripe!.createCoupon(
      {
        amountOffMinor: plan.discountMinor ?? 0,
        currency: order.currency,
        duration: coupon.plan_duration,
        durationInMonths: coupon.plan_duration_months,
        name: coupon.code,
        metadata: { orderId: order.id, code: coupon.code },
      },
      `plan-coupon-${order.id}`,
    )
    .catch((error: unknown) => {
      throw new DomainError('upstream', PAYMENT_MESSAGES.sessionFailed, { cause: error })
    })
  return created.id
}
