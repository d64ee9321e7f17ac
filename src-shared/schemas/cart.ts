// Cart and checkout inputs. Items are referenced by id only: strict objects refuse any extra key (a price).
import { z } from 'zod'
import { BILLING_CYCLES, type CartItemInput, PAYMENT_METHODS } from '../cart.ts'
import { CURRENCIES } from '../money.ts'

export {
  BILLING_CYCLES,
  type BillingCycleValue,
  CART_MESSAGES,
  type CartItemInput,
  cartItemKey,
  PAYMENT_MESSAGES,
  PAYMENT_METHODS,
  type PaymentMethodValue,
  planWithCycle,
} from '../cart.ts'

export const cartItemInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('course'), courseId: z.string().trim().min(1).max(120) }),
  z.strictObject({ kind: z.literal('service_package'), packageId: z.uuid() }),
  z.strictObject({
    kind: z.literal('plan'),
    planId: z.string().trim().min(1).max(40),
    billingCycle: z.enum(BILLING_CYCLES),
  }),
]) satisfies z.ZodType<CartItemInput>

export const cartItemIdInput = z.strictObject({ itemId: z.uuid() })

export const startCheckoutInput = z.strictObject({
  currency: z.enum(CURRENCIES),
  method: z.enum(PAYMENT_METHODS, { error: 'Please select a payment method' }),
})

export const orderIdInput = z.strictObject({ orderId: z.uuid() })
export const confirmSessionInput = z.strictObject({ sessionId: z.string().trim().min(1).max(255) })
