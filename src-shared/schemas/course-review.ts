// Inputs of the publish page (studioPublishing) and the staff review queue (admin.courseReviews).
import { z } from 'zod'
import { courseIdSchema } from './catalog.ts'

export const REVIEW_COMMENTS_MAX = 30

export const reviewCommentSchema = z.object({
  item: z.string().trim().min(1, 'Choose what the comment is about').max(200, 'Keep the item under 200 characters'),
  comment: z.string().trim().min(1, 'Write what should change').max(2000, 'Keep each comment under 2,000 characters'),
})

export const requestChangesInput = z.object({
  submissionId: z.uuid(),
  comments: z
    .array(reviewCommentSchema)
    .min(1, 'Add at least one comment')
    .max(REVIEW_COMMENTS_MAX, `At most ${REVIEW_COMMENTS_MAX} comments`),
})

export const REVIEW_QUEUE_PAGE_SIZE = 25

export const reviewQueueInput = z.object({
  kind: z.enum(['all', 'first', 'revision']).default('all'),
  /** Only submissions waiting at least this many days. */
  minAgeDays: z.coerce.number().int().min(0).max(365).default(0),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
})

export const courseRefInput = z.object({ courseId: courseIdSchema })

export const inviteCoInstructorInput = z.object({
  courseId: courseIdSchema,
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address')),
})

export const coInstructorRefInput = z.object({ courseId: courseIdSchema, userId: z.uuid() })
/** The owner's table of earnings shares: every instructor once, percentages with up to two decimals, summing to 100. */
export const courseSharesInput = z
  .object({
    courseId: courseIdSchema,
    shares: z
      .array(
        z.object({
          userId: z.uuid(),
          percent: z
            .number()
            .min(0, 'A share cannot be negative')
            .max(100, 'A share cannot be over 100 %')
            .refine(
              (value) =>
                Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
              'At most two decimals',
            ),
        }),
      )
      .min(1)
      .max(50),
  })
  .refine((input) => new Set(input.shares.map((share) => share.userId)).size === input.shares.length, {
    message: 'Each instructor once',
    path: ['shares'],
  })
  .refine((input) => Math.round(input.shares.reduce((sum, share) => sum + share.percent * 100, 0)) === 10_000, {
    message: 'The shares must add up to exactly 100 %',
    path: ['shares'],
  })
export const inviteRefInput = z.object({ courseId: courseIdSchema, inviteId: z.uuid() })
export const inviteTokenInput = z.object({ token: z.string().trim().min(10).max(200) })
