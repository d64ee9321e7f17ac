// The REST API's shapes (/api/v1, decision 0060): one zod schema per request and response, from which the OpenAPI 3.1
// document is generated (src-server/http/api-v1-openapi.ts). Money is in integer minor units with an ISO currency;
// times are ISO 8601 strings; lists are paged by an opaque cursor.
import { z } from 'zod'

const time = z.iso.datetime({ offset: true })
/** A course id as a client sends it: PostgreSQL's text cannot hold NUL, so one is refused here (400), not by a 500. */
const courseId = z
  .string()
  .min(1)
  .max(200)
  .refine((value) => !value.includes('\u0000'), 'A course id has no NUL character')

export const pageQuery = z.object({
  cursor: z.string().max(400).optional().meta({ description: 'The next_cursor of the previous page' }),
  limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'Items per page (1–100)' }),
})

export const enrolmentListQuery = pageQuery.extend({
  course_id: courseId.optional().meta({ description: 'Only this course’s enrolments' }),
})

export const courseIdParam = z.object({ id: courseId.meta({ description: 'The course id' }) })
export const enrolmentIdParam = z.object({ id: z.uuid().meta({ description: 'The enrolment id' }) })

export const grantEnrolmentBody = z
  .object({
    course_id: courseId,
    email: z.email().max(254).optional().meta({
      description:
        'The learner’s e-mail: one of your learners is enrolled at once; anyone else is mailed an invitation (202)',
    }),
    user_id: z.uuid().optional().meta({ description: 'Or the id of one of your learners (GET /learners)' }),
  })
  .refine((body) => Boolean(body.email) !== Boolean(body.user_id), 'Send either email or user_id')

const page = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({ data: z.array(item), next_cursor: z.string().nullable().meta({ description: 'null on the last page' }) })
    .meta({ id })

/**
 * A page of a list clients sync (enrolments, orders; decision 0094): rows appear in the order their transactions
 * began, and only once every transaction that began before them has ended, so a cursor never passes a row that could
 * still appear. `sync_cursor` is where to resume later, also on the last page.
 */
const syncPage = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      next_cursor: z.string().nullable().meta({ description: 'null on the last page' }),
      sync_cursor: z
        .string()
        .nullable()
        .meta({
          description:
            'Where to resume a sync later (pass it as `cursor`): after this page’s last item, or the cursor sent when ' +
            'the page is empty; null when there is nothing yet. Items committed later always come after it.',
        }),
    })
    .meta({ id })

export const apiCourse = z
  .object({
    id: z.string(),
    title: z.string(),
    subtitle: z.string(),
    status: z.enum(['draft', 'in_review', 'published', 'unpublished']),
    price_minor: z.number().int().meta({ description: 'The list price, in `currency` (0: free)' }),
    currency: z.string(),
    prices: z
      .object({ USD: z.number().int().nullable(), GBP: z.number().int().nullable() })
      .meta({ description: 'What a buyer pays in each currency, minor units (null: not sold in it)' }),
    lessons_count: z.number().int(),
    students_count: z.number().int(),
    published_at: time.nullable(),
    updated_at: time,
  })
  .meta({ id: 'Course' })

export const apiLesson = z
  .object({
    id: z.string(),
    section_id: z.string(),
    section_title: z.string(),
    position: z.number().int(),
    title: z.string(),
    kind: z.string(),
    duration_seconds: z.number().int(),
    is_preview: z.boolean(),
  })
  .meta({ id: 'Lesson' })

export const apiLearner = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    first_enrolled_at: time,
    courses: z.number().int(),
  })
  .meta({ id: 'Learner' })

/** Someone the school has no enrolment of yet: invited by e-mail, enrolled once they accept (decision 0128). */
export const apiEnrolmentInvitation = z
  .object({
    id: z.string(),
    email: z.string(),
    course_id: z.string(),
    status: z.enum(['invited', 'withdrawn']),
    expires_at: time,
  })
  .meta({ id: 'EnrolmentInvitation' })
export const invitationIdParam = z.object({ id: z.uuid().meta({ description: 'The invitation id' }) })

export const apiEnrolment = z
  .object({
    id: z.string(),
    learner: z.object({ id: z.string(), email: z.string() }),
    course_id: z.string(),
    source: z.enum(['purchase', 'subscription', 'school', 'free']),
    status: z.enum(['active', 'revoked', 'ended']),
    starts_at: time,
    ends_at: time.nullable(),
    revoked_at: time.nullable(),
  })
  .meta({ id: 'Enrolment' })

/**
 * What the API calls each source of a course grant in the access ledger: GET /api/v1/enrolments, and the enrolment
 * webhooks, which name the enrolment as the API does (decision 0141).
 */
export const API_ENROLMENT_SOURCE = {
  order_item: 'purchase',
  subscription: 'subscription',
  staff: 'school',
  free_enrolment: 'free',
} as const satisfies Record<string, z.output<typeof apiEnrolment>['source']>

export const apiOrderLine = z
  .object({
    id: z.string(),
    order_id: z.string(),
    reference: z.string(),
    status: z.string(),
    currency: z.string(),
    paid_at: time,
    course_id: z.string(),
    title: z.string(),
    amount_minor: z.number().int().meta({ description: 'The line’s price after its share of any discount' }),
    refunded_at: time.nullable(),
  })
  .meta({ id: 'OrderLine' })

export const apiEarning = z
  .object({
    id: z.string(),
    kind: z.string(),
    description: z.string(),
    at: time,
    currency: z.string(),
    pending_minor: z.number().int(),
    available_minor: z.number().int(),
    paid_out_minor: z.number().int(),
  })
  .meta({ id: 'EarningEntry' })

export const coursePage = page(apiCourse, 'CoursePage')
export const lessonPage = page(apiLesson, 'LessonPage')
export const learnerPage = page(apiLearner, 'LearnerPage')
export const enrolmentPage = syncPage(apiEnrolment, 'EnrolmentPage')
export const invitationPage = page(apiEnrolmentInvitation, 'EnrolmentInvitationPage')
export const orderPage = syncPage(apiOrderLine, 'OrderPage')
export const earningPage = page(apiEarning, 'EarningPage')

export const API_ERROR_CODES = [
  'missing_key',
  'unknown_key',
  'key_revoked',
  'key_expired',
  'plan_required',
  'insufficient_scope',
  'course_not_in_school',
  'course_not_published',
  'enrolment_not_in_school',
  'not_granted_by_school',
  'learner_not_found',
  'invalid_request',
  'not_found',
  'rate_limited',
  'internal',
] as const
export type ApiErrorCode = (typeof API_ERROR_CODES)[number]

export const apiError = z
  .object({ error: z.object({ code: z.enum(API_ERROR_CODES), message: z.string() }) })
  .meta({ id: 'Error' })

export type ApiCourse = z.output<typeof apiCourse>
export type ApiLesson = z.output<typeof apiLesson>
export type ApiLearner = z.output<typeof apiLearner>
export type ApiEnrolment = z.output<typeof apiEnrolment>
export type ApiEnrolmentInvitation = z.output<typeof apiEnrolmentInvitation>
export type ApiOrderLine = z.output<typeof apiOrderLine>
export type ApiEarning = z.output<typeof apiEarning>
