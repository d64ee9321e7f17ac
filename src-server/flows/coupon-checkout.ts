// The cart's coupon as orders/ sees it when checkout creates an order: the discount of each line (promotions/ works
// it out once, orders/ stores it on the lines) and the reservation of one use in the order's transaction.

import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import type { OrderableLine, OrderCoupon } from '../orders/create.ts'
import { type PricedLine, quoteLines } from '../promotions/coupon-pricing.ts'
import { appliedCoupon, type Coupon, courseOwners, refusal, refusalFor, reserveUse } from '../promotions/coupons.ts'
import { ownerPlanIncludesPromotions } from './creator-standing.ts'

/**
 * The lines as the pricing needs them: each course with its owner (a creator's coupon covers only theirs). A bundle
 * counts as courses of no one course or creator, in the cart (one line) as in the order (one line per course): a
 * code for chosen courses or for one creator leaves it alone, a store-wide one discounts its price the same way.
 */
export async function pricedLines(
  db: DB,
  lines: readonly (Omit<OrderableLine, 'key' | 'title' | 'detail' | 'kind'> & {
    kind: OrderableLine['kind'] | 'bundle'
  })[],
) {
  const single = (line: (typeof lines)[number]) => (line.kind === 'bundle' || line.bundle ? null : line.courseId)
  const owners = await courseOwners(
    db,
    lines.flatMap((line) => (single(line) ? [single(line) as string] : [])),
  )
  return lines.map(
    (line): PricedLine => ({
      kind: line.kind === 'bundle' ? 'course' : line.kind,
      courseId: single(line),
      priceMinor: line.priceMinor,
      recurringInterval: line.recurringInterval,
      ownerId: single(line) ? (owners.get(single(line) as string) ?? null) : null,
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
  const reason =
    (await refusalFor(db, coupon, await buyerOf(db, userId))) ??
    ((await stillOffered(db, coupon)) ? null : ('withdrawn' as const))
  return reason ? { ok: false as const, refusal: reason } : quote
}

/**
 * A creator's own code is offered while their plan includes coupons, as making one is: after the plan lapses (or
 * moves to Basic) it stops applying, and starts again with a plan that has them. Staff codes always are.
 */
async function stillOffered(db: DB, coupon: Coupon): Promise<boolean> {
  if (!coupon.madeByCreator || !coupon.creatorId) return true
  return ownerPlanIncludesPromotions(db, coupon.creatorId)
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
