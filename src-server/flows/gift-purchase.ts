// Buying a course as a gift (issue 32): its own order (source 'gift', beside the cart's), paid on the same rails as
// checkout; the buyer is never enrolled (fulfilGiftOrder, in the payment's transaction). The buyer sees their gifts,
// and can resend an unclaimed one to a corrected address: a new link, the old one dead.
import { priceFor } from '../../src-shared/course-prices.ts'
import { PAYMENT_MESSAGES } from '../../src-shared/schemas/cart.ts'
import type { GiftCheckoutInput } from '../../src-shared/schemas/gifts.ts'
import { findPublishedCourse } from '../catalog/repository.ts'
import * as clock from '../kernel/clock.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { attachStripeSession } from '../orders/create.ts'
import { createGiftOrder } from '../orders/gift-order.ts'
import { lockOrder } from '../orders/lock.ts'
import { markFailed } from '../orders/pending.ts'
import { bankDetailsFor } from '../payments/bank-details.ts'
import { paypalMeLink } from '../payments/paypal.ts'
import { customerMailbox } from '../promotions/coupons.ts'
import {
  changeRecipient,
  createGift,
  GIFT_MESSAGES,
  issueClaimLink,
  listBuyerGifts,
  lockBuyerGift,
} from '../promotions/gifts.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { allowAttempt, RATE_RULES, type RateLimiter, type RateRule } from '../security/rate-limit.ts'
import { findPlan } from '../subscriptions/plans.ts'
import { sendBankDetails } from './bank-transfer-mail.ts'
import { checkoutSessionParams } from './checkout-session.ts'
import { mailGift } from './gift-delivery.ts'
import { markPaid } from './pay-order.ts'
import type { CheckoutDeps } from './start-checkout.ts'

const GIFT_RULE: RateRule = { max: 20, windowMs: 10 * 60_000 }
const SEND_HOUR_UTC = 8
const LATEST_SEND_MS = 366 * 24 * 60 * 60 * 1000

export const GIFT_PURCHASE_MESSAGES = {
  courseNotFound: 'Course not found',
  sendDateTooLate: 'Pick a send date within the next year',
  planNotFound: 'Plan not found',
  ownAddress: 'This is your own address. To buy it for yourself, add it to your cart instead.',
} as const

/**
 * A gift goes to someone else: bought for oneself it would be a purchase that never opens until claimed. The buyer's
 * mailbox as coupons count a customer (decision 0041): any case, and `lea+me@` is `lea@`'s own mailbox.
 */
function refuseOwnAddress(recipientEmail: string, buyerEmail: string) {
  if (customerMailbox(recipientEmail) === customerMailbox(buyerEmail)) {
    throw new DomainError('invalid', GIFT_PURCHASE_MESSAGES.ownAddress, { field: 'recipientEmail' })
  }
}

/**
 * What is given, at the catalogue's price now: a course, or a plan's prepaid term (decision 0050): 1 or 3 months at
 * the monthly price each, 12 months at the annual price. Paid once; it never renews.
 */
async function giftedItem(db: DB, input: GiftCheckoutInput) {
  if (input.planId && input.planMonths) {
    const plan = await findPlan(db, input.planId)
    if (!plan) throw new DomainError('not_found', GIFT_PURCHASE_MESSAGES.planNotFound)
    const months = input.planMonths
    return {
      id: plan.id,
      planId: plan.id,
      title: `${plan.name} membership: ${months} ${months === 1 ? 'month' : 'months'}`,
      detail: `Gift: ${months} ${months === 1 ? 'month' : 'months'} prepaid, no renewal`,
      instructorName: null,
      priceMinor: months === 12 ? plan.annual_price_minor : plan.monthly_price_minor * months,
      currency: plan.currency === 'GBP' ? ('GBP' as const) : ('USD' as const),
    }
  }
  const course = await findPublishedCourse(db, input.courseId ?? '')
  if (!course) throw new DomainError('not_found', GIFT_PURCHASE_MESSAGES.courseNotFound)
  // The chosen currency's price when the course is sold in it, else its list price: as a cart line (decision 0069).
  return {
    id: course.id,
    title: course.title,
    instructorName: course.instructor_name,
    ...priceFor(course, input.currency),
  }
}

/** The chosen day at 08:00 UTC, or now (no day, or a day already past that hour). */
export function giftSendAt(sendOn: string | undefined, now = clock.now()): Date {
  if (!sendOn) return now
  const at = new Date(`${sendOn}T${String(SEND_HOUR_UTC).padStart(2, '0')}:00:00.000Z`)
  if (Number.isNaN(at.getTime())) throw new DomainError('invalid', 'Pick a valid date')
  if (at.getTime() - now.getTime() > LATEST_SEND_MS)
    throw new DomainError('invalid', GIFT_PURCHASE_MESSAGES.sendDateTooLate)
  return at.getTime() < now.getTime() ? now : at
}

export async function startGiftCheckout(
  deps: CheckoutDeps,
  buyer: { id: string; email: string },
  input: GiftCheckoutInput,
) {
  const { db, payments } = deps
  const allowed = await allowAttempt(deps.limiter, GIFT_RULE, `gift-checkout:${buyer.id}`, (error) =>
    deps.log?.warn({ err: error }, 'rate limiter unavailable; gift checkout allowed'),
  )
  if (!allowed) throw new DomainError('rate_limited', PAYMENT_MESSAGES.tooManyCheckouts)
  refuseOwnAddress(input.recipientEmail, buyer.email)
  const item = await giftedItem(db, input)
  const course = { price_minor: item.priceMinor }
  const free = course.price_minor === 0
  if (!free && input.method === 'card' && !payments.stripe) {
    throw new DomainError('precondition', PAYMENT_MESSAGES.cardNotConfigured)
  }
  if (!free && input.method === 'paypal' && !payments.paypalMeUrl) {
    throw new DomainError('precondition', PAYMENT_MESSAGES.paypalNotConfigured)
  }
  if (!free && input.method === 'free') throw new DomainError('invalid', PAYMENT_MESSAGES.notFree)
  const sendAt = giftSendAt(input.sendOn)
  const order = await inTransaction(db, async (trx) => {
    const created = await createGiftOrder(trx, {
      userId: buyer.id,
      course: item,
      method: input.method,
      referencePrefix: payments.referencePrefix,
      billing: input.billing,
    })
    await createGift(trx, {
      orderId: created.id,
      orderItemId: created.orderItemId,
      buyerId: buyer.id,
      recipientEmail: input.recipientEmail,
      message: input.message,
      sendAt,
      linkOrigin: deps.publicUrl,
      planMonths: input.planMonths ?? null,
    })
    if (created.method === 'bank_transfer') {
      await sendBankDetails(trx, buyer.id, created, bankDetailsFor(payments.bank, created.currency))
    }
    return created
  })
  const summary = {
    orderId: order.id,
    reference: order.reference,
    totalMinor: order.totalMinor,
    currency: order.currency,
  }
  if (order.totalMinor === 0) {
    await markPaid(db, order.id, { source: 'free' })
    return { method: 'free' as const, ...summary }
  }
  if (order.method === 'bank_transfer') {
    return {
      method: 'bank_transfer' as const,
      ...summary,
      reused: false,
      bank: bankDetailsFor(payments.bank, order.currency),
    }
  }
  if (order.method === 'paypal') {
    return {
      method: 'paypal' as const,
      ...summary,
      url: paypalMeLink(payments.paypalMeUrl!, order.totalMinor, order.currency),
    }
  }
  try {
    const params = checkoutSessionParams(order, buyer.email, deps.publicUrl, {
      trial: false,
      automaticTax: payments.stripeTax,
    })
    const session = await payments
      .stripe!.createCheckoutSession(params, `order-${order.id}`)
      .catch((error: unknown) => {
        throw new DomainError('upstream', PAYMENT_MESSAGES.sessionFailed, { cause: error })
      })
    await attachStripeSession(db, order.id, session.id)
    if (!session.url) throw new DomainError('upstream', PAYMENT_MESSAGES.noCheckoutUrl)
    return { method: 'card' as const, ...summary, url: session.url }
  } catch (error) {
    await markFailed(db, order.id)
    throw error
  }
}

/** 'recipient_owns': sent, and its recipient already had the course, so it waits for another address (decision 0146). */
export type GiftState =
  | 'awaiting_payment'
  | 'scheduled'
  | 'sent'
  | 'recipient_owns'
  | 'claimed'
  | 'refunded'
  | 'cancelled'

/** /account: the gifts the user bought, with where each stands. */
export async function listMyGifts(db: DB, buyerId: string) {
  const rows = await listBuyerGifts(db, buyerId)
  return rows.map((row) => {
    const state: GiftState =
      row.refunded_at || row.order_status === 'refunded'
        ? 'refunded'
        : row.claimed_at
          ? 'claimed'
          : row.recipient_owned_at
            ? 'recipient_owns'
            : row.mailed_at
              ? 'sent'
              : row.paid_at
                ? 'scheduled'
                : ['pending', 'awaiting_transfer'].includes(row.order_status)
                  ? 'awaiting_payment'
                  : 'cancelled'
    return {
      id: row.id,
      title: row.title,
      courseId: row.course_id,
      planId: row.plan_id,
      planMonths: row.plan_months,
      recipientEmail: row.recipient_email,
      sendAt: row.send_at.toISOString(),
      claimedAt: row.claimed_at?.toISOString() ?? null,
      reference: row.reference,
      totalMinor: row.total_minor,
      currency: row.currency,
      state,
    }
  })
}

/**
 * An unclaimed gift to a corrected address. Already mailed: a new link goes out now and the old one stops working.
 * Not mailed yet: it goes to the new address at its date. Counted per buyer (decision 0114): a free course can be
 * given, so without a limit one gift would mail its message to any number of addresses from our domain.
 */
export async function resendGift(
  db: DB,
  limiter: RateLimiter,
  buyer: { id: string; email: string },
  giftId: string,
  recipientEmail: string,
) {
  const buyerId = buyer.id
  refuseOwnAddress(recipientEmail, buyer.email)
  await reserveAttempt(
    limiter,
    [{ rule: RATE_RULES.giftResends, key: `gift-resend:${buyerId}` }],
    GIFT_MESSAGES.tooManyResends,
  )
  return inTransaction(db, async (trx) => {
    const gift = await lockBuyerGift(trx, giftId, buyerId)
    if (!gift) throw new DomainError('not_found', GIFT_MESSAGES.notFound)
    if (gift.claimed_at) throw new DomainError('conflict', GIFT_MESSAGES.claimed)
    const order = await lockOrder(trx, gift.order_id)
    if (order?.status !== 'paid' || !gift.paid_at) throw new DomainError('invalid', GIFT_MESSAGES.notResendable)
    if (!gift.mailed_at) {
      await changeRecipient(trx, gift.id, recipientEmail)
      return { id: gift.id, sent: false }
    }
    const link = await issueClaimLink(trx, gift.id, { onlyFirst: false, recipientEmail })
    if (!link) throw new DomainError('invalid', GIFT_MESSAGES.notResendable)
    await mailGift(trx, link.gift, link.token)
    return { id: gift.id, sent: true }
  })
}
