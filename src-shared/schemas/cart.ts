// Cart and checkout inputs. Items are referenced by id only: strict objects refuse any extra key (a price).
import { z } from 'zod'
import { CURRENCIES } from '../money.ts'

export const BILLING_CYCLES = ['monthly', 'annual'] as const
export type BillingCycleValue = (typeof BILLING_CYCLES)[number]
export const PAYMENT_METHODS = ['card', 'paypal', 'bank_transfer'] as const
export type PaymentMethodValue = (typeof PAYMENT_METHODS)[number]

export const cartItemInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('course'), courseId: z.string().trim().min(1).max(120) }),
  z.strictObject({ kind: z.literal('service_package'), packageId: z.uuid() }),
  z.strictObject({
    kind: z.literal('plan'),
    planId: z.string().trim().min(1).max(40),
    billingCycle: z.enum(BILLING_CYCLES),
  }),
])
export type CartItemInput = z.infer<typeof cartItemInput>

export const cartItemIdInput = z.strictObject({ itemId: z.uuid() })

export const startCheckoutInput = z.strictObject({
  currency: z.enum(CURRENCIES),
  method: z.enum(PAYMENT_METHODS, { error: 'Please select a payment method' }),
})

export const orderIdInput = z.strictObject({ orderId: z.uuid() })
export const confirmSessionInput = z.strictObject({ sessionId: z.string().trim().min(1).max(255) })

/** The key the server's unique index uses; the client uses it to tell whether an item is in the cart. */
export function cartItemKey(item: CartItemInput): string {
  if (item.kind === 'course') return `course:${item.courseId}`
  if (item.kind === 'service_package') return `service_package:${item.packageId}`
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
} as const

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
} as const
