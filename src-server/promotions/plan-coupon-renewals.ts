// What a plan coupon takes off a PayPal or bank-transfer renewal: the rule Stripe applies to a card membership's
// renewal invoices (decision 0050), for the renewal orders the membership schedule makes. Pure arithmetic.
//   once       the first payment only: no renewal is discounted
//   repeating  N months from the start: renewal k (k × 1 month, or k × 12 for annual, after the start) is
//              discounted while k × cycle months < N — Stripe's "a period starting before the discount ends"
//   forever    every renewal
// The amount is the plan line's stored share of the first order (what the card rail's Stripe coupon carries as
// amount_off), never more than the renewal's price.
import type { BillingCycle, PlanCouponDuration } from '../../db/types.ts'

export interface PlanCouponTerms {
  duration: PlanCouponDuration
  months: number | null
  /** The plan line's discount as stored on the first order. */
  shareMinor: number
}

export function planRenewalDiscount(
  terms: PlanCouponTerms,
  renewal: { cycle: BillingCycle; index: number; priceMinor: number },
): number {
  if (terms.shareMinor <= 0 || renewal.index < 1) return 0
  const covered =
    terms.duration === 'forever' ||
    (terms.duration === 'repeating' &&
      terms.months !== null &&
      renewal.index * (renewal.cycle === 'annual' ? 12 : 1) < terms.months)
  return covered ? Math.min(terms.shareMinor, renewal.priceMinor) : 0
}
