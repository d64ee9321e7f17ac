// The course review queue (/admin/course-reviews). Viewers read; editors and up decide.
import { z } from 'zod'
import { requestChangesInput, reviewQueueInput } from '../../../src-shared/schemas/course-review.ts'
import { reviewDetail, reviewQueue } from '../../catalog/course-review-queue.ts'
import { lessonContentForStaff } from '../../catalog/lesson-editing.ts'
import { approveSubmission, requestChanges } from '../../flows/course-review-decisions.ts'
import { renderMarkdown } from '../../learning/markdown.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCourseReviewsRouter = router({
  list: staffProcedure('viewer')
    .input(reviewQueueInput)
    .query(({ ctx, input }) => reviewQueue(ctx.db, input)),

  detail: staffProcedure('viewer')
    .input(z.object({ submissionId: z.uuid() }))
    .query(async ({ ctx, input }) => {
      const detail = await reviewDetail(ctx.db, input.submissionId)
      // The reviewer reads the description as buyers will see it on the course page (sanitised Markdown).
      return { ...detail, course: { ...detail.course, descriptionHtml: renderMarkdown(detail.course.description) } }
    }),

  /** A lesson's content as the reviewer opens it (the video plays through the lesson media route, staff may). */
  lesson: staffProcedure('viewer')
    .input(z.object({ courseId: z.string().trim().min(1).max(120), lessonId: z.uuid() }))
    .query(({ ctx, input }) => lessonContentForStaff(ctx.db, input.courseId, input.lessonId)),

  approve: staffProcedure('editor')
    .input(z.object({ submissionId: z.uuid() }))
    .mutation(({ ctx, input }) =>
      approveSubmission(ctx.db, actorOf(ctx.user), input.submissionId, {
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
