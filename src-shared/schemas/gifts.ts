// Gift inputs (issue 32). Strict objects: the price is the catalogue's, never the client's.
import { z } from 'zod'
import { CHECKOUT_METHODS } from '../cart.ts'
import { CURRENCIES } from '../money.ts'
import { billingDetailsInput } from './cart.ts'

export const GIFT_MESSAGE_MAX = 1000

const recipientEmail = z
  .string()
  .trim()
  .min(1, 'Enter the recipient’s email address')
  .max(254)
  .pipe(z.email('Please enter a valid email address'))
  .transform((value) => value.toLowerCase())

/** A gifted plan is prepaid for one of these terms, then ends (no renewal): decision 0050. */
export const GIFT_PLAN_TERMS = [1, 3, 12] as const
export const GIFT_PLAN_MESSAGES = {
  oneThing: 'Choose a course or a plan to give',
  term: 'Choose a term of 1, 3 or 12 months',
  currencyForCourse: 'A plan is paid in its own currency',
} as const

export const giftCheckoutInput = z
  .strictObject({
    courseId: z.string().trim().min(1).max(120).optional(),
    /** A plan given for a prepaid term (`planMonths`), instead of a course. */
    planId: z.string().trim().min(1).max(60).optional(),
    planMonths: z
      .union(GIFT_PLAN_TERMS.map((term) => z.literal(term)) as [z.ZodLiteral<1>, z.ZodLiteral<3>, z.ZodLiteral<12>], {
        error: GIFT_PLAN_MESSAGES.term,
      })
      .optional(),
    /** A course sold in USD and GBP is paid in the one chosen (decision 0069); nothing: its list currency. */
    currency: z.enum(CURRENCIES).optional(),
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
  .superRefine((input, ctx) => {
    if (Boolean(input.courseId) === Boolean(input.planId)) {
      ctx.addIssue({ code: 'custom', path: ['courseId'], message: GIFT_PLAN_MESSAGES.oneThing })
    }
    if (input.currency && !input.courseId) {
      ctx.addIssue({ code: 'custom', path: ['currency'], message: GIFT_PLAN_MESSAGES.currencyForCourse })
    }
    if (Boolean(input.planId) !== (input.planMonths !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['planMonths'], message: GIFT_PLAN_MESSAGES.term })
    }
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

/** A gift waiting for the signed-in account's address (decision 0146): its id, no token. */
export const claimWaitingGiftInput = z.strictObject({ giftId: z.uuid('Gift not found') })
