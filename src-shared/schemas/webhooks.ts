// Outgoing webhooks (issue 36, decision 0061): the event catalogue and the studio's inputs.
import { z } from 'zod'

export const WEBHOOK_EVENT_TYPES = [
  'order.paid',
  'order.refunded',
  'enrolment.granted',
  'enrolment.revoked',
  'course.completed',
  'quiz.passed',
  'question.asked',
  'gift.purchased',
  'gift.claimed',
  'bundle.purchased',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'order.paid': 'An order with one of your courses was paid',
  'order.refunded': 'An order line of one of your courses was refunded',
  'enrolment.granted': 'A learner was enrolled in one of your courses',
  'enrolment.revoked': 'A learner’s enrolment was revoked',
  'course.completed': 'A learner completed one of your courses',
  'quiz.passed': 'A learner passed a quiz',
  'question.asked': 'A learner asked a question under a lesson',
  'gift.purchased': 'Someone paid for one of your courses as a gift',
  'gift.claimed': 'A gift of one of your courses was claimed by its recipient',
  'bundle.purchased': 'A bundle with your courses was paid (one event per bundle, with its courses)',
}

/** The event a "Send test event" button sends (not part of the catalogue). */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, 'Choose known events'))
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)

export const webhookUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the URL')
  .max(2000, 'Keep the URL under 2,000 characters')
  .refine((value) => URL.canParse(value), 'Enter a full URL, starting with https://')

export const createWebhookEndpointInput = z.object({
  url: webhookUrlSchema,
  description: z.string().trim().max(200, 'Keep the description under 200 characters').default(''),
  eventTypes,
})

export const updateWebhookEndpointInput = z.object({
  endpointId: z.uuid(),
  description: z.string().trim().max(200, 'Keep the description under 200 characters'),
  eventTypes,
  enabled: z.boolean(),
})

export const webhookEndpointRefInput = z.object({ endpointId: z.uuid() })
export const webhookDeliveryRefInput = z.object({ deliveryId: z.uuid() })
