// Cart and checkout inputs. Items are referenced by id only: strict objects refuse any extra key (a price).
import { z } from 'zod'
import { BILLING_CYCLES, type CartItemInput, CHECKOUT_METHODS, COURSE_CHANNELS } from '../cart.ts'
import { CURRENCIES } from '../money.ts'

export {
  BILLING_CYCLES,
  type BillingCycleValue,
  CART_MESSAGES,
  type CartItemInput,
  CHECKOUT_METHODS,
  type CheckoutMethodValue,
  COURSE_CHANNELS,
  type CourseChannel,
  cartItemKey,
  mixesPlanAndService,
  PAYMENT_MESSAGES,
  PAYMENT_METHODS,
  type PaymentMethodValue,
  planWithCycle,
} from '../cart.ts'

export const cartItemInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('course'),
    courseId: z.string().trim().min(1).max(120),
    /** The currency the buyer pays in; a course not sold in it is sold in the one it has (decision 0069). */
    currency: z.enum(CURRENCIES).optional(),
    /** How the buyer reached the course page (analytics' channels); any other value is a direct sale. */
    from: z.enum(COURSE_CHANNELS).optional().catch(undefined),
  }),
  z.strictObject({ kind: z.literal('service_package'), packageId: z.uuid() }),
  z.strictObject({
    kind: z.literal('plan'),
    planId: z.string().trim().min(1).max(40),
    billingCycle: z.enum(BILLING_CYCLES),
  }),
  z.strictObject({ kind: z.literal('bundle'), bundleId: z.uuid() }),
]) satisfies z.ZodType<CartItemInput>

export const cartItemIdInput = z.strictObject({ itemId: z.uuid() })

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined)

/** What the invoice names as the buyer; name and e-mail default to the account's. */
export const billingDetailsInput = z.strictObject({
  name: optionalText(120),
  email: z
    .union([z.literal(''), z.email('Please enter a valid email address').max(254)])
    .optional()
    .transform((value) => value || undefined),
  company: optionalText(160),
  address: optionalText(500),
  vatNumber: optionalText(40),
})
export type BillingDetails = z.output<typeof billingDetailsInput>

export const startCheckoutInput = z.strictObject({
  currency: z.enum(CURRENCIES),
  method: z.enum(CHECKOUT_METHODS, { error: 'Please select a payment method' }),
  billing: billingDetailsInput.optional(),
  /** "E-mail me a reminder about this cart": offered at checkout, never pre-ticked (issue 32). */
  remindMe: z.boolean().optional(),
  /**
   * The total (in minor units of `currency`) the payment page showed: the server refuses a checkout whose cart now
   * comes to another amount (decision 0145). The payment page always sends it.
   */
  shownTotalMinor: z.number().int().nonnegative().optional(),
})

export const orderIdInput = z.strictObject({ orderId: z.uuid() })
export const confirmSessionInput = z.strictObject({ sessionId: z.string().trim().min(1).max(255) })
