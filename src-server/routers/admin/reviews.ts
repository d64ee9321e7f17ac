// Course reviews as staff see them: everyone on the team reads every review (hidden ones too); editors and up hide
// a review or show it again, audited.

import { ADMIN_PAGE_SIZE } from '../../../src-shared/admin.ts'
import { reviewHiddenInput, staffReviewsInput } from '../../../src-shared/schemas/reviews.ts'
import { setReviewHidden } from '../../flows/reviews.ts'
import { listReviewsForStaff, toReview } from '../../learning/repository-reviews.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminReviewsRouter = router({
  list: staffProcedure('viewer')
    .input(staffReviewsInput)
    .query(async ({ ctx, input }) => {
      const { rows, ...paging } = await listReviewsForStaff(ctx.db, input, input.page, ADMIN_PAGE_SIZE)
      return {
        items: rows.map((row) => ({ ...toReview(row), courseId: row.course_id, courseTitle: row.course_title })),
        ...paging,
      }
    }),

  setHidden: staffProcedure('editor')
    .input(reviewHiddenInput)
    .mutation(({ ctx, input }) => setReviewHidden(ctx.db, actorOf(ctx.user), input.id, input.hidden)),
})
