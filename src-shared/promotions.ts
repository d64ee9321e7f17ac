// Coupon messages and constants without zod (the cart page reads these; its first load stays free of the schema
// library). Each refusal says why, in the buyer's words.
export const COUPON_SCOPES = ['everything', 'courses', 'creator', 'service_packages', 'plans'] as const
export type CouponScopeValue = (typeof COUPON_SCOPES)[number]
export const COUPON_KINDS = ['percent', 'fixed'] as const
export type CouponKindValue = (typeof COUPON_KINDS)[number]

export const COUPON_SCOPE_LABELS: Record<CouponScopeValue, string> = {
  everything: 'Everything (courses and service packages)',
  courses: 'Chosen courses',
  creator: "All of one creator's courses",
  service_packages: 'Service packages',
  plans: 'Membership plans',
}

/**
 * Where a code stands now (the coupon tables): worked out on the server by the rules Apply code follows. Paused: a
 * creator's own code, still to run, while their plan does not include coupons (buyers are told it is not offered).
 */
export const COUPON_STATUSES = ['active', 'scheduled', 'paused', 'ended', 'usedUp', 'off'] as const
export type CouponStatus = (typeof COUPON_STATUSES)[number]
export const COUPON_STATUS_LABELS: Record<CouponStatus, string> = {
  active: 'Active',
  scheduled: 'Scheduled',
  paused: 'Paused',
  ended: 'Ended',
  usedUp: 'Used up',
  off: 'Off',
}

/** How long a plan coupon discounts the plan: Stripe's coupon durations. */
export const PLAN_COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const
export type PlanCouponDurationValue = (typeof PLAN_COUPON_DURATIONS)[number]
export const PLAN_COUPON_DURATION_LABELS: Record<PlanCouponDurationValue, string> = {
  once: 'First payment only',
  repeating: 'A number of months',
  forever: 'Every renewal',
}
export const PLAN_COUPON_MAX_MONTHS = 36

export const COUPON_REFUSALS = {
  unknown: 'This code does not exist',
  notStarted: 'This code is not valid yet',
  expired: 'This code has expired',
  usedUp: 'This code has been used up',
  alreadyUsed: 'You have already used this code',
  nothingApplies: 'Nothing in your cart qualifies for this code',
  belowMinimum: 'Your cart is below the minimum amount for this code',
  firstPurchaseOnly: 'This code is only for your first purchase',
  // A creator's own code whose plan no longer includes coupons (the Pro and Enterprise plans do).
  withdrawn: 'This code is no longer offered',
} as const
export type CouponRefusal = keyof typeof COUPON_REFUSALS
/** The refusal of a cart under the code's minimum, naming the minimum in the cart's currency ("$50.00"). */
export const belowMinimumRefusal = (minimum: string) => `This code needs a cart of at least ${minimum}`
/** Whether a message is one of the refusals of a code (the minimum one naming its amount included). */
export function isCouponRefusal(message: string): boolean {
  return (Object.values(COUPON_REFUSALS) as string[]).includes(message) || message.startsWith(belowMinimumRefusal(''))
}
/** Too many codes that do not exist, from one person or one client address (decision 0114). */
export const COUPON_TOO_MANY = 'Too many codes tried. Please wait a few minutes and try again.'

export const COUPON_MESSAGES = {
  applied: 'Code applied',
  removed: 'Code removed',
  oneCode: 'Only one code per cart: remove the current code first',
  taken: 'A coupon with this code already exists',
  notFound: 'Coupon not found',
  planRequired: 'Coupons are part of the Pro and Enterprise creator plans',
  notYourCourse: 'A creator coupon can only be for your own courses',
  fixedAbovePrice: 'The fixed amount is more than the price of a course it applies to',
  fixedAbovePlanPrice: 'The fixed amount is more than the monthly price of a plan',
  planDurationRequired: 'Say how long the code discounts the plan: first payment, a number of months, or every renewal',
  planDurationMonths: 'The number of months must be a whole number from 1 to 36',
  planDurationOnlyForPlans: 'Only a code for membership plans has a duration',
  endsInPast: 'This end date has already passed: choose a date and time still to come',
} as const

/** The cart's word on a code that fewer orders may use than the cart has currencies (each is its own checkout). */
export function codeCoversFewerCheckouts(code: string, ordersLeft: number): string {
  return ordersLeft === 1
    ? `You can use ${code} on one more order: only the first currency you check out gets its discount.`
    : `You can use ${code} on ${ordersLeft} more orders: only the first ${ordersLeft} currencies you check out get its discount.`
}

/** A code refused when checkout starts (used up or expired meanwhile…): it left the cart, and the buyer is told. */
export function codeRemovedAtCheckout(refusal: string, code: string): string {
  return `${refusal}: code ${code} was removed from your cart. Please review the new total.`
}

/** Removing the last line a code covered drops the code: the removal says so. */
export function codeNoLongerApplies(code: string): string {
  return `Code ${code} no longer applies and was removed`
}

/** How codes are compared and stored: trimmed, upper-case. */
export function normaliseCode(code: string): string {
  return code.trim().toUpperCase()
}
