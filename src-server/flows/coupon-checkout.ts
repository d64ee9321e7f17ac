// The cart's coupon as orders/ sees it when checkout creates an order: the discount of each line (promotions/ works
// it out once, orders/ stores it on the lines) and the reservation of one use in the order's transaction.

import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import type { OrderableLine, OrderCoupon } from '../orders/create.ts'
import { type PricedLine, quoteLines } from '../promotions/coupon-pricing.ts'
import { appliedCoupon, type Coupon, courseOwners, refusal, refusalFor, reserveUse } from '../promotions/coupons.ts'

/** The lines as the pricing needs them: each course with its owner (a creator's coupon covers only theirs). */
export async function pricedLines(db: DB, lines: readonly Omit<OrderableLine, 'key' | 'title' | 'detail'>[]) {
  const owners = await courseOwners(
    db,
    lines.flatMap((line) => (line.courseId ? [line.courseId] : [])),
  )
  return lines.map(
    (line): PricedLine => ({
      kind: line.kind,
      courseId: line.courseId,
      priceMinor: line.priceMinor,
      recurringInterval: line.recurringInterval,
      ownerId: line.courseId ? (owners.get(line.courseId) ?? null) : null,
    }),
  )
}

async function buyerOf(db: DB, userId: string) {
  return db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
}

/** What the applied coupon does to one currency group: a discount, nothing (it covers no line there), or a refusal. */
export async function quoteGroup(
  db: DB,
  coupon: Coupon,
  userId: string,
  currency: Currency,
  lines: readonly Omit<OrderableLine, 'key' | 'title' | 'detail'>[],
) {
  const quote = quoteLines(coupon, currency, await pricedLines(db, lines))
  if (!quote.ok) return quote
  const reason = await refusalFor(db, coupon, await buyerOf(db, userId))
  return reason ? { ok: false as const, refusal: reason } : quote
}

export const orderCoupon: OrderCoupon = {
  async quote(trx, userId, currency, lines) {
    const coupon = await appliedCoupon(trx, userId)
    if (!coupon) return null
    const quote = await quoteGroup(trx, coupon, userId, currency, lines)
    if (quote.ok) return { couponId: coupon.id, code: coupon.code, perLine: quote.perLine }
    // A code that covers nothing in this currency's lines leaves them at full price; any other reason is said.
    if (quote.refusal === 'nothingApplies') return null
    throw refusal(quote.refusal)
  },
  async reserve(trx, use) {
    await reserveUse(trx, {
      couponId: use.discount.couponId,
      orderId: use.orderId,
      userId: use.userId,
      currency: use.currency,
      discountMinor: use.discount.perLine.reduce((sum, part) => sum + part, 0),
    })
  },
}
