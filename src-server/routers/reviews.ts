// Course reviews: anyone reads a course's visible reviews and rating summary; a learner with access who completed
// a lesson writes one review per course and edits or deletes it (the rules live in flows/reviews.ts).

import { REVIEWS_PAGE_SIZE } from '../../src-shared/reviews.ts'
import {
  courseIdInput,
  courseReviewsInput,
  reviewCreateInput,
  reviewIdInput,
  reviewUpdateInput,
} from '../../src-shared/schemas/reviews.ts'
import { createReview, deleteReview, myReview, updateReview } from '../flows/reviews.ts'
import { computeRatingSummary, listVisibleReviews, toReview } from '../learning/repository-reviews.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const reviewsRouter = router({
  /** Visible reviews, newest first, one page at a time. */
  list: publicProcedure.input(courseReviewsInput).query(async ({ ctx, input }) => {
    const { rows, ...paging } = await listVisibleReviews(ctx.db, input.courseId, input.page, REVIEWS_PAGE_SIZE)
    return { items: rows.map(toReview), ...paging }
  }),

  /** Average to one decimal, count and reviews per star, from the visible reviews. */
  summary: publicProcedure.input(courseIdInput).query(({ ctx, input }) => computeRatingSummary(ctx.db, input.courseId)),

  /** Whether the caller may review the course (and why not), and their own review. Visitors may ask too. */
  mine: publicProcedure.input(courseIdInput).query(({ ctx, input }) => myReview(ctx.db, ctx.user, input.courseId)),

  create: authedProcedure
    .input(reviewCreateInput)
    .mutation(({ ctx, input: { courseId, ...content } }) => createReview(ctx.db, ctx.user, courseId, content)),

  update: authedProcedure
    .input(reviewUpdateInput)
    .mutation(({ ctx, input: { id, ...content } }) => updateReview(ctx.db, ctx.user, id, content)),

  delete: authedProcedure.input(reviewIdInput).mutation(({ ctx, input }) => deleteReview(ctx.db, ctx.user, input.id)),
})
