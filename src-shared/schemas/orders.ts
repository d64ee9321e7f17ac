// After-purchase inputs: documents, refunds and refund requests.
import { z } from 'zod'

export const DOCUMENT_KINDS = ['invoice', 'credit_note'] as const

export const documentInput = z.strictObject({ kind: z.enum(DOCUMENT_KINDS), id: z.uuid() })

export const freeEnrolmentInput = z.strictObject({ courseId: z.string().trim().min(1).max(120) })

export const REFUND_MESSAGES = {
  reasonRequired: 'Please tell us why you would like a refund',
  referenceRequired: 'Please enter the reference of the PayPal or bank refund',
  chooseLines: 'Please choose at least one line to refund',
  nothingToRefund: 'Nothing left to refund on this order',
  paidNothing: 'Nothing was paid for this line (a free trial): there is nothing to refund',
  trialPaidNothing:
    'Nothing was paid for this order (a free trial): there is nothing to refund. To end the trial, use End membership on this order instead',
  notRefundable: 'Only a paid order can be refunded',
  exceedsCaptured: 'The refund would exceed what was paid',
  lineRefunded: 'This line has already been refunded',
  requestWindow: 'Refunds can be requested within 30 days of purchase',
  requestExists: 'A refund has already been requested for this line',
  bundleRequestExists: 'A refund has already been requested for this bundle',
  onlyCourses: 'Refunds can be requested for courses only',
  declineReason: 'Please give a reason for declining',
  alreadyAssigned: 'This refund’s lines have already been settled',
} as const

export const refundInput = z.strictObject({
  orderId: z.uuid(),
  /** The lines to give back; absent means the whole order. */
  lineIds: z.array(z.uuid()).min(1, REFUND_MESSAGES.chooseLines).max(100).optional(),
  /** PayPal and bank transfers are refunded by hand: the reference of that refund. */
  reference: z.string().trim().max(200).optional(),
  reason: z.string().trim().max(500).optional(),
})

export const refundRequestInput = z.strictObject({
  lineId: z.uuid(),
  reason: z.string().trim().min(1, REFUND_MESSAGES.reasonRequired).max(1000),
})

export const refundDecisionInput = z.discriminatedUnion('decision', [
  z.strictObject({
    requestId: z.uuid(),
    decision: z.literal('approve'),
    reference: z.string().trim().max(200).optional(),
  }),
  z.strictObject({
    requestId: z.uuid(),
    decision: z.literal('decline'),
    reason: z.string().trim().min(1, REFUND_MESSAGES.declineReason).max(1000),
  }),
])

/**
 * Staff say which lines a partial Stripe-dashboard refund gave back (they lose access); none: access stays as it
 * is (decision 0026).
 */
export const refundLinesInput = z.strictObject({
  refundId: z.uuid(),
  lineIds: z.array(z.uuid()).max(100),
})
