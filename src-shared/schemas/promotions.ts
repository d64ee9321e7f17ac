// Coupon inputs: the staff and studio editors and the cart's Apply code. Hostile input (a negative or > 100 %
// discount, dates in the wrong order, a code with NUL or 10,000 characters) is refused here with a clear message.
import { z } from 'zod'
import { CURRENCIES } from '../money.ts'
import {
  COUPON_KINDS,
  COUPON_MESSAGES,
  COUPON_SCOPES,
  normaliseCode,
  PLAN_COUPON_DURATIONS,
  PLAN_COUPON_MAX_MONTHS,
} from '../promotions.ts'

export * from '../promotions.ts'

export const CODE_MESSAGE = 'A code is 3 to 40 letters, digits, - or _'
const CODE_PATTERN = /^[A-Z0-9_-]{3,40}$/

/** A code as typed: case-insensitive; anything but letters, digits, - and _ (NUL, spaces, emoji) is refused. */
export const couponCode = z
  .string()
  .max(40, CODE_MESSAGE)
  .transform(normaliseCode)
  .refine((code) => CODE_PATTERN.test(code), CODE_MESSAGE)

export const applyCouponInput = z.strictObject({ code: couponCode })

const minor = (message: string) => z.number().int(message).min(1, message).max(100_000_000, message)
const amounts = (message: string) => z.partialRecord(z.enum(CURRENCIES), minor(message))

// A coupon's window is a real date this century or the next (the database's timestamps cannot hold year 0).
const couponInstant = z.iso.datetime({ offset: true }).refine((value) => {
  const year = new Date(value).getUTCFullYear()
  return year >= 2000 && year <= 2199
}, 'Choose a date between the years 2000 and 2199')

export const couponInput = z
  .strictObject({
    code: couponCode,
    kind: z.enum(COUPON_KINDS),
    percentOff: z
      .number()
      .int('The percentage must be a whole number')
      .min(1, 'The percentage must be between 1 and 100')
      .max(100, 'The percentage must be between 1 and 100')
      .nullable()
      .default(null),
    amountsOff: amounts('A fixed amount must be a positive amount').default({}),
    minAmounts: amounts('A minimum must be a positive amount').default({}),
    appliesTo: z.enum(COUPON_SCOPES),
    courseIds: z.array(z.string().trim().min(1).max(120)).max(200).default([]),
    creatorId: z.uuid().nullable().default(null),
    startsAt: couponInstant.nullable().default(null),
    endsAt: couponInstant.nullable().default(null),
    maxUses: z.number().int().min(1, 'The limit must be at least 1').max(1_000_000).nullable().default(null),
    maxUsesPerCustomer: z
      .number()
      .int()
      .min(1, 'The limit per customer must be at least 1')
      .max(1000)
      .nullable()
      .default(null),
    firstPurchaseOnly: z.boolean().default(false),
    /** A plan coupon's duration (Stripe's): the first payment, N months, or every renewal. */
    planDuration: z
      .enum(PLAN_COUPON_DURATIONS, { error: COUPON_MESSAGES.planDurationRequired })
      .nullable()
      .default(null),
    planDurationMonths: z
      .number(COUPON_MESSAGES.planDurationMonths)
      .int(COUPON_MESSAGES.planDurationMonths)
      .min(1, COUPON_MESSAGES.planDurationMonths)
      .max(PLAN_COUPON_MAX_MONTHS, COUPON_MESSAGES.planDurationMonths)
      .nullable()
      .default(null),
  })
  .superRefine((input, ctx) => {
    if (input.kind === 'percent' && input.percentOff === null) {
      ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'The percentage must be between 1 and 100' })
    }
    if (input.kind === 'fixed' && Object.keys(input.amountsOff).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['amountsOff'], message: 'Give the fixed amount in at least one currency' })
    }
    if (input.startsAt && input.endsAt && Date.parse(input.endsAt) <= Date.parse(input.startsAt)) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' })
    }
    if (input.appliesTo === 'courses' && input.courseIds.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['courseIds'], message: 'Choose at least one course' })
    }
    if (input.appliesTo === 'plans') {
      if (!input.planDuration) {
        ctx.addIssue({ code: 'custom', path: ['planDuration'], message: COUPON_MESSAGES.planDurationRequired })
      }
      if (input.planDuration === 'repeating' && input.planDurationMonths === null) {
        ctx.addIssue({ code: 'custom', path: ['planDurationMonths'], message: COUPON_MESSAGES.planDurationMonths })
      }
      if (input.planDuration !== 'repeating' && input.planDurationMonths !== null) {
        ctx.addIssue({ code: 'custom', path: ['planDurationMonths'], message: COUPON_MESSAGES.planDurationMonths })
      }
    } else if (input.planDuration !== null || input.planDurationMonths !== null) {
      ctx.addIssue({ code: 'custom', path: ['planDuration'], message: COUPON_MESSAGES.planDurationOnlyForPlans })
    }
    if (input.appliesTo === 'creator' && !input.creatorId) {
      ctx.addIssue({ code: 'custom', path: ['creatorId'], message: 'Choose the creator' })
    }
  })
export type CouponInput = z.output<typeof couponInput>

export const couponIdInput = z.strictObject({ couponId: z.uuid() })
