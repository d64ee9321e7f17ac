// The cart's coupon as orders/ sees it when checkout creates an order: the discount of each line (promotions/ works
// it out once, orders/ stores it on the lines) and the reservation of one use in the order's transaction.

import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import type { OrderableLine, OrderCoupon } from '../orders/create.ts'
import { bundleOrderLines } from '../promotions/bundles.ts'
import { type PricedLine, type Quote, quoteLines } from '../promotions/coupon-pricing.ts'
import { appliedCoupon, type Coupon, courseOwners, refusal, refusalFor, reserveUse } from '../promotions/coupons.ts'
import { ownerPlanIncludesPromotions } from './creator-standing.ts'

type QuotedLine = Omit<OrderableLine, 'key' | 'title' | 'detail'> & { bundleId?: string | null }

/**
 * The lines as the pricing needs them: each course with its owner (a creator's coupon covers only theirs), and for
 * each priced part the index of the line it belongs to. A bundle's courses are ordinary course lines for a code
 * (decisions 0042, 0147): the order holds them as its lines already; the cart's one bundle line is split here exactly
 * as checkout splits it (`bundleOrderLines`: each course at its share of the bundle's price), so a code for chosen
 * courses or for a creator's courses takes its part off those courses' shares, in the cart as in the order.
 */
async function pricedLines(db: DB, lines: readonly QuotedLine[]) {
  const parts: { line: number; priced: Omit<PricedLine, 'ownerId'> }[] = []
  for (const [index, line] of lines.entries()) {
    const split = line.kind === 'bundle' && line.bundleId ? await bundleParts(db, line.bundleId) : null
    for (const course of split ?? []) {
      parts.push({
        line: index,
        priced: { kind: 'course', courseId: course.courseId, priceMinor: course.priceMinor, recurringInterval: null },
      })
    }
    if (split) continue
    const kind = line.kind === 'bundle' ? 'course' : line.kind
    parts.push({ line: index, priced: { ...pick(line), kind } })
  }
  const owners = await courseOwners(
    db,
    parts.flatMap((part) => (part.priced.courseId ? [part.priced.courseId] : [])),
  )
  return parts.map(({ line, priced }) => ({
    line,
    priced: { ...priced, ownerId: priced.courseId ? (owners.get(priced.courseId) ?? null) : null } as PricedLine,
  }))
}

const pick = ({ courseId, priceMinor, recurringInterval }: QuotedLine) => ({ courseId, priceMinor, recurringInterval })

/** A bundle's courses at their shares of its price; null when it is no longer on sale (the cart leaves it out). */
async function bundleParts(db: DB, bundleId: string) {
  try {
    return (await bundleOrderLines(db, bundleId)).lines
  } catch (error) {
    if (error instanceof DomainError) return null
    throw error
  }
}

/** The buyer as the coupon limits count them: their id and their account's address. */
export async function buyerOf(db: DB, userId: string) {
  return db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
}

/** What the applied coupon does to one currency group: a discount, nothing (it covers no line there), or a refusal. */
export async function quoteGroup(
  db: DB,
  coupon: Coupon,
  userId: string,
  currency: Currency,
  lines: readonly QuotedLine[],
): Promise<Quote> {
  const parts = await pricedLines(db, lines)
  const quote = quoteLines(
    coupon,
    currency,
    parts.map((part) => part.priced),
  )
  if (!quote.ok) return quote
  const reason =
    (await refusalFor(db, coupon, await buyerOf(db, userId))) ??
    ((await stillOffered(db, coupon)) ? null : ('withdrawn' as const))
  if (reason) return { ok: false, refusal: reason }
  // Each line's discount: a bundle's is the sum of its courses' (the order stores them per course line).
  const perLine = lines.map(() => 0)
  parts.forEach((part, index) => {
    perLine[part.line] = (perLine[part.line] ?? 0) + (quote.perLine[index] ?? 0)
  })
  return { ok: true, perLine, totalMinor: quote.totalMinor }
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
    throw refusal(quote.refusal, quote.minimum)
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
