// The creator studio: creators only (creatorProcedure), and every course reached through its editor check
// (flows/studio-*.ts call creators/course-team.ts): another creator's course, section or lesson is not found.
import { z } from 'zod'
import {
  addLessonInput,
  addSectionInput,
  arrangeInput,
  courseRef,
  lessonRef,
  renameSectionInput,
  sectionRef,
  studioCourseInput,
  studioCreateInput,
  studioListInput,
  updateLessonInput,
} from '../../src-shared/schemas/studio.ts'
import { listCategoryChoices } from '../catalog/studio-courses.ts'
import {
  createStudioCourse,
  saveStudioCourse,
  studioCourse,
  studioCourses,
  studioStanding,
} from '../flows/studio-courses.ts'
import {
  addStudioLesson,
  addStudioSection,
  arrangeStudioCurriculum,
  deleteStudioLesson,
  deleteStudioSection,
  renameStudioSection,
  saveStudioLesson,
  setStudioLessonPreview,
  studioLesson,
} from '../flows/studio-curriculum.ts'
import { creatorProcedure, router } from '../trpc/init.ts'

export const studioRouter = router({
  standing: creatorProcedure.query(({ ctx }) => studioStanding(ctx.db, ctx.user.id, ctx.config.creatorLimits)),

  /** The categories a course can be filed under. */
  categories: creatorProcedure.query(({ ctx }) => listCategoryChoices(ctx.db)),

  myCourses: creatorProcedure
    .input(studioListInput)
    .query(({ ctx, input }) => studioCourses(ctx.db, ctx.user.id, input)),

  course: creatorProcedure
    .input(courseRef)
    .query(({ ctx, input }) => studioCourse(ctx.db, ctx.user.id, input.courseId)),

  createCourse: creatorProcedure
    .input(studioCreateInput)
    .mutation(({ ctx, input }) => createStudioCourse(ctx.db, ctx.creator, input)),

  updateCourse: creatorProcedure
    .input(studioCourseInput)
    .mutation(({ ctx, input }) => saveStudioCourse(ctx.db, ctx.user.id, input, ctx.storage)),

  addSection: creatorProcedure
    .input(addSectionInput)
    .mutation(({ ctx, input }) => addStudioSection(ctx.db, ctx.user.id, input)),

  renameSection: creatorProcedure
    .input(renameSectionInput)
    .mutation(({ ctx, input }) => renameStudioSection(ctx.db, ctx.user.id, input)),

  deleteSection: creatorProcedure
    .input(sectionRef)
    .mutation(({ ctx, input }) => deleteStudioSection(ctx.db, ctx.user.id, input, ctx.storage)),

  arrange: creatorProcedure
    .input(arrangeInput)
    .mutation(({ ctx, input }) => arrangeStudioCurriculum(ctx.db, ctx.user.id, input)),

  addLesson: creatorProcedure
    .input(addLessonInput)
    .mutation(({ ctx, input }) => addStudioLesson(ctx.db, ctx.user.id, input)),

  lesson: creatorProcedure
    .input(lessonRef)
    .query(({ ctx, input }) => studioLesson(ctx.db, ctx.user.id, input.courseId, input.lessonId)),

  updateLesson: creatorProcedure
    .input(updateLessonInput)
    .mutation(({ ctx, input }) => saveStudioLesson(ctx.db, ctx.user.id, input, ctx.storage)),

  /** The builder's preview switch: the lesson opens for everyone once the course is published. */
  setPreview: creatorProcedure
    .input(lessonRef.extend({ isPreview: z.boolean() }))
    .mutation(({ ctx, input }) => setStudioLessonPreview(ctx.db, ctx.user.id, input)),

  deleteLesson: creatorProcedure
    .input(lessonRef)
    .mutation(({ ctx, input }) => deleteStudioLesson(ctx.db, ctx.user.id, input, ctx.storage)),
})
