// Inputs of /account → Membership.
import { z } from 'zod'
import { BILLING_CYCLES } from '../cart.ts'

export const CANCEL_REASON_MAX = 500

export const cancelMembershipInput = z.strictObject({
  reason: z
    .string()
    .trim()
    .max(CANCEL_REASON_MAX, `Please keep the reason under ${CANCEL_REASON_MAX} characters`)
    .optional(),
})

export const planChoiceInput = z.strictObject({
  planId: z.string().trim().min(1).max(40),
  billingCycle: z.enum(BILLING_CYCLES),
})

export const changePlanInput = planChoiceInput.extend({
  /** The moment of the preview the member confirmed (unix seconds), so the charge is the amount shown. */
  prorationDate: z.number().int().positive(),
})
