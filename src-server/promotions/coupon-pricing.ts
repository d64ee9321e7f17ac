// What a coupon takes off one currency group of a cart: pure arithmetic, no database. The discount is worked out on
// the lines it applies to and split over them by largest remainder (money.ts `allocate`), so no cent is lost; the
// split is stored on each order line and never computed again.
import type { AmountsByCurrency, CouponKind, CouponScope } from '../../db/types.ts'
import { allocate, type Currency } from '../../src-shared/money.ts'
import type { CouponRefusal } from '../../src-shared/promotions.ts'

export interface PricedCoupon {
  kind: CouponKind
  percentOff: number | null
  amountsOff: AmountsByCurrency
  minAmounts: AmountsByCurrency
  appliesTo: CouponScope
  courseIds: readonly string[]
  /** A creator's coupon applies only to courses that creator owns. */
  creatorId: string | null
}

export interface PricedLine {
  kind: 'course' | 'service_package' | 'plan'
  courseId: string | null
  priceMinor: number
  recurringInterval: 'month' | 'year' | null
  /** The course's owner (creator), when the line is a course. */
  ownerId: string | null
}

/** Why a code takes nothing off; under the minimum, the minimum it asks for (the refusal names it). */
export type QuoteRefusal = { ok: false; refusal: CouponRefusal; minimum?: { currency: Currency; amountMinor: number } }
export type Quote = { ok: true; perLine: number[]; totalMinor: number } | QuoteRefusal

/**
 * Whether the coupon covers this line. A plan is covered only by a plan coupon (staff's, with a Stripe duration), and
 * a plan coupon covers nothing else; monthly service packages are never discounted.
 */
export function appliesToLine(coupon: PricedCoupon, line: PricedLine): boolean {
  if (line.priceMinor <= 0) return false
  if (coupon.appliesTo === 'plans' || line.kind === 'plan') {
    return coupon.appliesTo === 'plans' && line.kind === 'plan' && coupon.creatorId === null
  }
  if (line.recurringInterval) return false
  if (coupon.creatorId && (line.kind !== 'course' || line.ownerId !== coupon.creatorId)) return false
  switch (coupon.appliesTo) {
    case 'everything':
      return true
    case 'courses':
      return line.kind === 'course' && line.courseId !== null && coupon.courseIds.includes(line.courseId)
    case 'creator':
      return line.kind === 'course' && line.ownerId !== null && line.ownerId === coupon.creatorId
    case 'service_packages':
      return line.kind === 'service_package'
    default:
      return false
  }
}

/** The discount of each line (in the lines' order; 0 where it does not apply), or why there is none. */
export function quoteLines(coupon: PricedCoupon, currency: Currency, lines: readonly PricedLine[]): Quote {
  const applies = lines.map((line) => appliesToLine(coupon, line))
  const base = lines.reduce((sum, line, index) => sum + (applies[index] ? line.priceMinor : 0), 0)
  if (base === 0) return { ok: false, refusal: 'nothingApplies' }
  const subtotal = lines.reduce((sum, line) => sum + line.priceMinor, 0)
  const minimum = coupon.minAmounts[currency]
  if (minimum !== undefined && subtotal < minimum) {
    return { ok: false, refusal: 'belowMinimum', minimum: { currency, amountMinor: minimum } }
  }
  let total: number
  if (coupon.kind === 'percent') {
    // Rounded half up to the minor unit, in integers.
    total = Math.floor((base * (coupon.percentOff ?? 0) + 50) / 100)
  } else {
    const off = coupon.amountsOff[currency]
    if (off === undefined) return { ok: false, refusal: 'nothingApplies' }
    total = Math.min(off, base)
  }
  const shares = allocate(
    total,
    lines.map((line, index) => (applies[index] ? line.priceMinor : 0)),
  )
  return { ok: true, perLine: shares, totalMinor: total }
}
