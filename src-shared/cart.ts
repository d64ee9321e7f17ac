// Cart and checkout constants and messages without zod, so client code that only needs these (the header's
// cart count, the cart buttons) does not pull the schema library into the first page load.

export const BILLING_CYCLES = ['monthly', 'annual'] as const
export type BillingCycleValue = (typeof BILLING_CYCLES)[number]
export const PAYMENT_METHODS = ['card', 'paypal', 'bank_transfer'] as const
export type PaymentMethodValue = (typeof PAYMENT_METHODS)[number]
/** What checkout accepts: a rail, or 'free' for a cart whose total is 0 (completed without one). */
export const CHECKOUT_METHODS = [...PAYMENT_METHODS, 'free'] as const
export type CheckoutMethodValue = (typeof CHECKOUT_METHODS)[number]

/** How the buyer reached a course page (`?from=` on its address): a catalogue search result, or browsing the
 * catalogue or a category. Anything else is a direct sale. */
export const COURSE_CHANNELS = ['search', 'catalogue'] as const
export type CourseChannel = (typeof COURSE_CHANNELS)[number]

export type CartItemInput =
  | { kind: 'course'; courseId: string; currency?: 'USD' | 'GBP'; from?: CourseChannel }
  | { kind: 'service_package'; packageId: string }
  | { kind: 'plan'; planId: string; billingCycle: BillingCycleValue }
  | { kind: 'bundle'; bundleId: string }

/** The key the server's unique index uses; the client uses it to tell whether an item is in the cart. */
export function cartItemKey(item: CartItemInput): string {
  if (item.kind === 'course') return `course:${item.courseId}`
  if (item.kind === 'service_package') return `service_package:${item.packageId}`
  if (item.kind === 'bundle') return `bundle:${item.bundleId}`
  return `plan:${item.planId}`
}

export const CART_MESSAGES = {
  loginToAdd: 'Please log in to add items to cart',
  duplicate: 'This item is already in your cart',
  addFailed: 'Failed to add item to cart. Please try again.',
  removed: 'Item removed from cart',
  removeFailed: 'Failed to remove item from cart',
  cleared: 'Cart cleared',
  clearFailed: 'Failed to clear cart',
  loadFailed: 'Failed to load cart items',
  loginToCheckout: 'Please log in to proceed with checkout',
  empty: 'Your cart is empty',
  alreadyOwned: 'You already own this course',
  hasPlan: 'You already have a plan. Use Change plan on the pricing page to switch.',
  planWithService:
    'A plan and a monthly service are paid in separate checkouts. Please check out what is in your cart first, then add this.',
} as const

/**
 * A plan beside a monthly service in one checkout (one currency's lines): refused, in the cart and at checkout
 * (decision 0136). Stripe would bill both as one subscription: the service would get the plan's free trial, its
 * renewals would be booked as the membership's, and changing or cancelling the plan would change or end the service.
 */
export function mixesPlanAndService(lines: readonly { kind: string; recurringInterval: string | null }[]): boolean {
  return (
    lines.some((line) => line.kind === 'plan') &&
    lines.some((line) => line.kind !== 'plan' && line.recurringInterval !== null)
  )
}

/** 'Pro (annual)': a plan and its billing cycle, as the cart's replacement message names them. */
export function planWithCycle(name: string, cycle: BillingCycleValue): string {
  return `${name} (${cycle})`
}

export const PAYMENT_MESSAGES = {
  selectMethod: 'Please select a payment method',
  sessionFailed: 'Failed to create payment session',
  noCheckoutUrl: 'No checkout URL received',
  redirected: 'Redirected to Stripe checkout',
  copyFailed: 'Failed to copy to clipboard',
  noSession: 'No payment session found',
  processingError: 'Error processing your payment',
  paypalLoadFailed: 'Failed to load PayPal payment system',
  bankSaved: "Bank details saved. Please complete the transfer and we'll confirm your payment within 24 hours.",
  cardNotConfigured: 'Card payments are not configured on this store yet. Please choose PayPal or bank transfer.',
  paypalNotConfigured: 'PayPal payments are not configured on this store yet.',
  tooManyCheckouts: 'Too many checkout attempts. Please wait a few minutes and try again.',
  mixedIntervals: 'Monthly and yearly subscriptions must be checked out separately. Please remove one from your cart.',
  paypalPending:
    'Your PayPal order is waiting for our confirmation. Cancel it from your cart before starting another checkout.',
  checkoutInProgress: 'A checkout of this cart is already in progress. Please try again.',
  notFree: 'This cart is not free: please choose a payment method',
  freeCompleted: 'You are enrolled. Enjoy your courses!',
  refundFailed: 'Stripe could not make the refund. Nothing was refunded; please try again.',
  refundUnconfirmed:
    'Stripe did not answer, so the refund is not confirmed. If Stripe made it, the order shows it shortly; trying again never refunds twice.',
  alreadyPaid: 'This order has already been paid',
  checkoutExpired: 'This checkout has expired. Please start again from your cart.',
  notResumable: 'Only a pending card payment can be resumed',
  notCancellable: 'Only a pending order can be cancelled',
  orderCancelled: 'Order cancelled',
  stripeUnavailable: 'We could not reach the card processor. Please try again in a moment.',
  hasPlan: 'You already have a live plan. Use Change plan on the pricing page instead of buying another.',
  planWithService:
    'A plan and a monthly service are paid in separate checkouts. Please remove one from your cart, check out the other first, then add it back.',
  /** The cart no longer comes to the total the payment page showed (changed in another tab, a price changed). */
  totalChanged: 'Your cart changed: please review the new total',
  /** On a school's own domain, the cart holds what others sell too (decision 0150). */
  otherSellers:
    'Your cart also holds items this school does not sell. Remove them to pay here, or pay for everything on the marketplace.',
} as const
