import { z } from 'zod'
import { REVIEW_MAX_LENGTH, REVIEW_MESSAGES, REVIEW_VISIBILITY } from '../reviews.ts'
import { courseIdSchema } from './catalog.ts'

const rating = z
  .number(REVIEW_MESSAGES.ratingRequired)
  .int(REVIEW_MESSAGES.ratingRequired)
  .min(1, REVIEW_MESSAGES.ratingRequired)
  .max(5, REVIEW_MESSAGES.ratingRequired)
const body = z.string().trim().max(REVIEW_MAX_LENGTH, REVIEW_MESSAGES.tooLong).default('')

/** The review form: the same schema checks the form in the browser and the input on the server. */
export const reviewFormSchema = z.object({ rating, body })
export type ReviewForm = z.input<typeof reviewFormSchema>

export const reviewCreateInput = reviewFormSchema.extend({ courseId: courseIdSchema })
export const reviewUpdateInput = reviewFormSchema.extend({ id: z.uuid() })
export const reviewIdInput = z.object({ id: z.uuid() })
export const courseReviewsInput = z.object({
  courseId: courseIdSchema,
  page: z.number().int().min(1).max(10_000).default(1),
})
export const courseIdInput = z.object({ courseId: courseIdSchema })

export { REVIEW_VISIBILITY }
export const staffReviewsInput = z.object({
  page: z.number().int().min(1).max(10_000).default(1),
  visibility: z.enum(REVIEW_VISIBILITY).default('all'),
  courseId: courseIdSchema.optional(),
})
export const reviewHiddenInput = z.object({ id: z.uuid(), hidden: z.boolean() })
