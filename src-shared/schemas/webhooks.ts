// Outgoing webhooks (issue 36, decision 0061): the event catalogue, each event's payload (its `data`, documented on
// /developers/api and typed for the flows that write it) and the studio's inputs.
import { z } from 'zod'
import { apiEnrolment } from './api-v1.ts'
import { actionProofInput } from './privacy.ts'

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

// Each event's `data`, in the words of the REST API (decision 0141): its ids are the ids the API's records carry, and
// an enrolment's source is the API's, so a receiver finds the record an event is about.
const id = (description: string) => z.string().meta({ description })
const courseId = id('The course: `id` in GET /api/v1/courses')
const learnerId = id('The learner: `id` in GET /api/v1/learners')
const orderId = id('The order: `order_id` in GET /api/v1/orders')
const orderItemId = id('The order line: `id` in GET /api/v1/orders')
const enrolmentId = id('The enrolment: `id` in GET /api/v1/enrolments')
const amountMinor = z.number().int().meta({ description: 'The line’s price after discounts, in minor units (cents)' })
const currency = z.string().meta({ description: 'ISO 4217 code, e.g. USD' })
const lessonId = id('The lesson: `id` in GET /api/v1/courses/{id}/lessons')
const giftId = id('The gift')
const buyerId = id('Who paid for the gift')
/** The enrolment sources the events name: the API's (a course is never held through a subscription). */
const enrolmentSource = apiEnrolment.shape.source.extract(['purchase', 'school', 'free']).meta({
  description:
    'How the learner holds the course, as GET /api/v1/enrolments says: purchase (an order, or a gift its recipient ' +
    'claimed), school (granted by your school through the API or an invitation), free (a free course)',
})
const grantId = id(
  'The same as enrolmentId, on your school’s own grants only: kept for receivers written before enrolmentId was sent',
)

export const WEBHOOK_EVENT_DATA = {
  'order.paid': z.object({ courseId, orderId, orderItemId, learnerId: id('The buyer'), amountMinor, currency }),
  'order.refunded': z.object({
    courseId,
    orderId,
    orderItemId,
    learnerId: id('The buyer'),
    amountMinor: amountMinor.meta({ description: 'What the line gave back, in minor units (cents)' }),
    currency,
    cause: z.enum(['refund', 'dispute']).meta({ description: 'A refund, or a card dispute the buyer won' }),
  }),
  'enrolment.granted': z.object({
    courseId,
    enrolmentId,
    learnerId,
    source: enrolmentSource,
    orderId: orderId.optional().meta({ description: 'The order (a purchase only)' }),
    orderItemId: orderItemId.optional().meta({ description: 'The order line (a purchase only)' }),
    giftId: giftId.optional().meta({ description: 'The gift, when the purchase was a gift its recipient claimed' }),
    grantId: grantId.optional(),
  }),
  'enrolment.revoked': z.object({
    courseId,
    enrolmentId,
    learnerId,
    reason: z
      .enum(['refund', 'dispute', 'school'])
      .meta({ description: 'A refund, a card dispute, or your school revoked it through the API' }),
    orderId: orderId.optional().meta({ description: 'The order (a refund or dispute only)' }),
    orderItemId: orderItemId.optional().meta({ description: 'The order line (a refund or dispute only)' }),
    grantId: grantId.optional(),
  }),
  'course.completed': z.object({
    courseId,
    learnerId,
    certificateId: z.string().nullable().meta({ description: 'The certificate issued, if the course gives one' }),
  }),
  'quiz.passed': z.object({
    courseId,
    learnerId,
    lessonId,
    attemptId: id('The quiz attempt'),
    scorePercent: z.number().nullable().meta({ description: 'The attempt’s score, 0–100' }),
  }),
  'question.asked': z.object({
    courseId,
    learnerId,
    lessonId,
    questionId: id('The question'),
    title: z.string().meta({ description: 'The question’s title' }),
  }),
  'gift.purchased': z.object({
    courseId,
    giftId,
    orderId,
    orderItemId,
    buyerId,
    amountMinor,
    currency: z.string().nullable().meta({ description: 'ISO 4217 code, e.g. USD' }),
    sendAt: z.string().meta({ description: 'When the gift is mailed to its recipient (ISO 8601)' }),
  }),
  'gift.claimed': z.object({
    courseId,
    giftId,
    learnerId: id('The recipient who claimed it'),
    buyerId,
    orderId,
    orderItemId,
  }),
  'bundle.purchased': z.object({
    bundleId: id('The bundle'),
    bundleTitle: z.string().nullable().meta({ description: 'The bundle’s title when it was bought' }),
    orderId,
    learnerId: id('The buyer'),
    courseIds: z.array(z.string()).meta({ description: 'Your school’s courses in the bundle' }),
    orderItemIds: z.array(z.string()).meta({ description: 'Their order lines (`id` in GET /api/v1/orders)' }),
    amountMinor: amountMinor.meta({ description: 'The sum of those lines after discounts, in minor units (cents)' }),
    currency,
  }),
} as const satisfies Record<WebhookEventType, z.ZodObject>

/** The `data` of an event of this type, as the flows write it. */
export type WebhookEventData<T extends WebhookEventType> = z.output<(typeof WEBHOOK_EVENT_DATA)[T]>

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

/** An endpoint's own fields. */
export const webhookEndpointFieldsInput = z.object({
  url: webhookUrlSchema,
  description: z.string().trim().max(200, 'Keep the description under 200 characters').default(''),
  eventTypes,
})

/**
 * "Add endpoint" with a fresh proof (the password, an app code, or an e-mailed code for an account without a
 * password, decision 0141): the endpoint's secret is in the answer, and an endpoint hears of the school's orders and
 * learners until it is removed, so a stolen session alone must not add one.
 */
export const createWebhookEndpointInput = webhookEndpointFieldsInput.extend(actionProofInput.shape)

export const updateWebhookEndpointInput = z.object({
  endpointId: z.uuid(),
  description: z.string().trim().max(200, 'Keep the description under 200 characters'),
  eventTypes,
  enabled: z.boolean(),
})

export const webhookEndpointRefInput = z.object({ endpointId: z.uuid() })
/** Reveal or rotate an endpoint's secret: with a fresh proof too (decision 0141). */
export const webhookSecretInput = webhookEndpointRefInput.extend(actionProofInput.shape)
export const webhookDeliveryRefInput = z.object({ deliveryId: z.uuid() })
