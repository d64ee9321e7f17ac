// Manage Courses. Reading needs a viewer; every change needs an editor.

import { z } from 'zod'
import {
  courseInput,
  courseListInput,
  courseUpdateInput,
  lessonContentInput,
} from '../../../src-shared/schemas/admin.ts'
import { courseIdSchema } from '../../../src-shared/schemas/catalog.ts'
import { DEFAULT_LESSON_VIDEO_MAX_BYTES } from '../../../src-shared/uploads.ts'
import { adminCoursePage, createCourse, setCourseFeatured, updateCourse } from '../../catalog/course-editing.ts'
import { lessonContentForStaff, updateLessonContent } from '../../catalog/lesson-editing.ts'
import { deleteOrArchiveCourse } from '../../flows/course-purchases.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCoursesRouter = router({
  list: staffProcedure('viewer')
    .input(courseListInput)
    .query(({ ctx, input }) => adminCoursePage(ctx.db, input.filter, input.search, input.page)),

  create: staffProcedure('editor')
    .input(courseInput)
    .mutation(({ ctx, input }) => createCourse(ctx.db, actorOf(ctx.user), input, ctx.storage)),

  update: staffProcedure('editor')
    .input(courseUpdateInput)
    .mutation(({ ctx, input: { id, ...input } }) => updateCourse(ctx.db, actorOf(ctx.user), id, input, ctx.storage)),

  setFeatured: staffProcedure('editor')
    .input(z.object({ id: courseIdSchema, featured: z.boolean() }))
    .mutation(({ ctx, input }) => setCourseFeatured(ctx.db, actorOf(ctx.user), input.id, input.featured)),

  /** A lesson's content for the curriculum editor's lesson dialog. */
  lessonContent: staffProcedure('editor')
    .input(z.object({ courseId: courseIdSchema, lessonId: z.uuid() }))
    .query(async ({ ctx, input }) => ({
      ...(await lessonContentForStaff(ctx.db, input.courseId, input.lessonId)),
      /** The largest video /api/admin/lesson-video takes: the editor says it and checks a file before sending it. */
      videoMaxBytes: ctx.config.lessonVideoMaxBytes ?? DEFAULT_LESSON_VIDEO_MAX_BYTES,
    })),

  updateLessonContent: staffProcedure('editor')
    .input(lessonContentInput)
    .mutation(({ ctx, input }) => updateLessonContent(ctx.db, actorOf(ctx.user), input, ctx.storage)),

  delete: staffProcedure('editor')
    .input(z.object({ id: courseIdSchema }))
    .mutation(({ ctx, input }) => deleteOrArchiveCourse(ctx.db, actorOf(ctx.user), input.id)),
})
