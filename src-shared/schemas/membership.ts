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
  /**
   * The preview the member confirmed: its proration date (unix seconds) as previewChange answered it. It only names
   * the preview; the server prorates at the date it kept and refuses any other (decision 0135).
   */
  prorationDate: z.number().int().positive().max(253_402_300_799), // at most the year 9999
})

/** Staff's End membership (decision 0096): when the plan ends; no refund is made by it. */
export const STAFF_END_WHEN = ['period_end', 'now'] as const
export type StaffEndWhen = (typeof STAFF_END_WHEN)[number]

export const STAFF_END_MESSAGES = {
  notFound: 'Membership not found',
  ended: 'This membership has already ended',
  scheduled: 'This membership is already set to end at the end of its period',
  inProgress: 'Another staff member is ending this membership right now. Reload the page to see the outcome.',
} as const

export const staffEndMembershipInput = z.strictObject({
  subscriptionId: z.uuid(),
  when: z.enum(STAFF_END_WHEN),
  reason: z
    .string()
    .trim()
    .max(CANCEL_REASON_MAX, `Please keep the note under ${CANCEL_REASON_MAX} characters`)
    .optional(),
})
