// Gift inputs (issue 32). Strict objects: the price is the catalogue's, never the client's.
import { z } from 'zod'
import { CHECKOUT_METHODS } from '../cart.ts'
import { billingDetailsInput } from './cart.ts'

export const GIFT_MESSAGE_MAX = 1000

const recipientEmail = z
  .string()
  .trim()
  .min(1, 'Enter the recipient’s email address')
  .max(254)
  .pipe(z.email('Please enter a valid email address'))
  .transform((value) => value.toLowerCase())

export const giftCheckoutInput = z.strictObject({
  courseId: z.string().trim().min(1).max(120),
  recipientEmail,
  message: z
    .string()
    .max(GIFT_MESSAGE_MAX, `Keep the message under ${GIFT_MESSAGE_MAX} characters`)
    .refine((value) => !value.includes('\u0000'), 'The message cannot contain that character')
    .transform((value) => value.trim())
    .default(''),
  /** A day (YYYY-MM-DD, sent at 08:00 UTC) or nothing: at once. */
  sendOn: z
    .union([z.literal(''), z.iso.date('Pick a valid date')])
    .optional()
    .transform((value) => value || undefined),
  method: z.enum(CHECKOUT_METHODS, { error: 'Please select a payment method' }),
  billing: billingDetailsInput.optional(),
})
export type GiftCheckoutInput = z.output<typeof giftCheckoutInput>

/** The token of a claim link: base32, 40 characters; anything else is refused before a look-up. */
export const claimGiftInput = z.strictObject({
  token: z
    .string()
    .trim()
    .regex(/^[a-z2-7]{40}$/, 'This gift link is not valid. Ask the sender to resend the gift.'),
})

export const resendGiftInput = z.strictObject({ giftId: z.uuid(), recipientEmail })
