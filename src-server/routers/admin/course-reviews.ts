// The course review queue (/admin/course-reviews). Viewers read; editors and up decide.
import { z } from 'zod'
import { requestChangesInput, reviewQueueInput } from '../../../src-shared/schemas/course-review.ts'
import { reviewQueue } from '../../catalog/course-review-queue.ts'
import { lessonContentForStaff } from '../../catalog/lesson-editing.ts'
import { approveSubmission, requestChanges, submissionUnderReview } from '../../flows/course-review-decisions.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCourseReviewsRouter = router({
  list: staffProcedure('viewer')
    .input(reviewQueueInput)
    .query(({ ctx, input }) => reviewQueue(ctx.db, input)),

  /** The reviewer reads the description as buyers will see it on the course page (sanitised Markdown). */
  detail: staffProcedure('viewer')
    .input(z.object({ submissionId: z.uuid() }))
    .query(({ ctx, input }) => submissionUnderReview(ctx.db, input.submissionId)),

  /** A lesson's content as the reviewer opens it (the video plays through the lesson media route, staff may). */
  lesson: staffProcedure('viewer')
    .input(z.object({ courseId: z.string().trim().min(1).max(120), lessonId: z.uuid() }))
    .query(({ ctx, input }) => lessonContentForStaff(ctx.db, input.courseId, input.lessonId)),

  /** `version`: the detail's, as the reviewer saw it (a course edited since is refused). */
  approve: staffProcedure('editor')
    .input(z.object({ submissionId: z.uuid(), version: z.string().trim().min(1).max(64) }))
    .mutation(({ ctx, input }) =>
      approveSubmission(ctx.db, actorOf(ctx.user), input, {
        publicUrl: ctx.config.publicUrl,
        overrides: ctx.config.creatorLimits,
      }),
    ),

  requestChanges: staffProcedure('editor')
    .input(requestChangesInput)
    .mutation(({ ctx, input }) =>
      requestChanges(ctx.db, actorOf(ctx.user), input, { publicUrl: ctx.config.publicUrl }),
    ),
})
