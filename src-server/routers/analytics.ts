// Analytics: a creator's (their courses only, by plan), staff's (the shop, viewer and up), and the course page's
// view beacon (counted by the server unless the visitor is a bot or asked not to be tracked).
import { z } from 'zod'
import { analyticsRangeSchema, courseViewedSchema } from '../../src-shared/schemas/analytics.ts'
import { courseIdSchema } from '../../src-shared/schemas/catalog.ts'
import { countCourseEvent } from '../analytics/counters.ts'
import { isCountableVisitor } from '../analytics/visitor.ts'
import { creatorAnalytics, creatorLessonAnalytics, shopAnalytics, staffLessonAnalytics } from '../flows/analytics.ts'
import { creatorProcedure, publicProcedure, router, staffProcedure } from '../trpc/init.ts'

const courseInput = z.object({ courseId: courseIdSchema })

export const analyticsRouter = router({
  creator: creatorProcedure
    .input(analyticsRangeSchema)
    .query(({ ctx, input }) => creatorAnalytics(ctx.db, ctx.user.id, input)),
  creatorLessons: creatorProcedure
    .input(courseInput)
    .query(({ ctx, input }) => creatorLessonAnalytics(ctx.db, ctx.user.id, input.courseId)),
  shop: staffProcedure('viewer')
    .input(analyticsRangeSchema)
    .query(({ ctx, input }) => shopAnalytics(ctx.db, input)),
  shopLessons: staffProcedure('viewer')
    .input(courseInput)
    .query(({ ctx, input }) => staffLessonAnalytics(ctx.db, input.courseId)),
  /** One course-page view; answers at once (the count is written in a batch). */
  courseViewed: publicProcedure.input(courseViewedSchema).mutation(({ ctx, input }) => {
    const counted = isCountableVisitor(ctx.req?.headers ?? {})
    if (counted) countCourseEvent(ctx.db, input.courseId, 'views', input.from)
    return { counted }
  }),
})
