// The creator studio: creators only (creatorProcedure); a course's procedures also admit its co-instructors and school
// members (courseEditorProcedure), and every course is reached through its editor check (flows/studio-*.ts call
// creators/course-team.ts, which asks creators/school-access.ts): another creator's course is not found, and a
// school member whose role may not edit (finance, support) is refused.
import { z } from 'zod'
import {
  addLessonInput,
  addSectionInput,
  arrangeInput,
  courseRef,
  enrolmentInviteRef,
  lessonRef,
  renameSectionInput,
  sectionRef,
  studioCourseImageInput,
  studioCourseInput,
  studioCreateInput,
  studioListInput,
  updateLessonInput,
} from '../../src-shared/schemas/studio.ts'
import { listCategoryChoices } from '../catalog/studio-courses.ts'
import { studioEnrolmentInvites, withdrawStudioEnrolmentInvite } from '../flows/enrolment-invites.ts'
import {
  createStudioCourse,
  saveStudioCourse,
  saveStudioCourseImage,
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
import { courseEditorProcedure, creatorProcedure, router } from '../trpc/init.ts'

export const studioRouter = router({
  standing: creatorProcedure.query(({ ctx }) => studioStanding(ctx.db, ctx.user.id, ctx.config.creatorLimits)),

  /** The categories a course can be filed under. */
  categories: courseEditorProcedure.query(({ ctx }) => listCategoryChoices(ctx.db)),

  /** The open invitations to take the owner's courses, sent through the REST API (decision 0128). */
  enrolmentInvitations: creatorProcedure.query(({ ctx }) => studioEnrolmentInvites(ctx.db, ctx.user.id)),

  withdrawEnrolmentInvitation: creatorProcedure
    .input(enrolmentInviteRef)
    .mutation(({ ctx, input }) => withdrawStudioEnrolmentInvite(ctx.db, ctx.user.id, input.inviteId)),

  myCourses: creatorProcedure
    .input(studioListInput)
    .query(({ ctx, input }) => studioCourses(ctx.db, ctx.user.id, input)),

  course: courseEditorProcedure
    .input(courseRef)
    .query(({ ctx, input }) => studioCourse(ctx.db, ctx.user.id, input.courseId)),

  createCourse: creatorProcedure
    .input(studioCreateInput)
    .mutation(({ ctx, input }) => createStudioCourse(ctx.db, ctx.creator, input)),

  updateCourse: courseEditorProcedure
    .input(studioCourseInput)
    .mutation(({ ctx, input }) => saveStudioCourse(ctx.db, ctx.user.id, input, ctx.storage)),

  setCourseImage: courseEditorProcedure
    .input(studioCourseImageInput)
    .mutation(({ ctx, input }) => saveStudioCourseImage(ctx.db, ctx.user.id, input, ctx.storage)),

  addSection: courseEditorProcedure
    .input(addSectionInput)
    .mutation(({ ctx, input }) => addStudioSection(ctx.db, ctx.user.id, input)),

  renameSection: courseEditorProcedure
    .input(renameSectionInput)
    .mutation(({ ctx, input }) => renameStudioSection(ctx.db, ctx.user.id, input)),

  deleteSection: courseEditorProcedure
    .input(sectionRef)
    .mutation(({ ctx, input }) => deleteStudioSection(ctx.db, ctx.user.id, input, ctx.storage)),

  arrange: courseEditorProcedure
    .input(arrangeInput)
    .mutation(({ ctx, input }) => arrangeStudioCurriculum(ctx.db, ctx.user.id, input)),

  addLesson: courseEditorProcedure
    .input(addLessonInput)
    .mutation(({ ctx, input }) => addStudioLesson(ctx.db, ctx.user.id, input)),

  lesson: courseEditorProcedure
    .input(lessonRef)
    .query(({ ctx, input }) => studioLesson(ctx.db, ctx.user.id, input.courseId, input.lessonId)),

  updateLesson: courseEditorProcedure
    .input(updateLessonInput)
    .mutation(({ ctx, input }) => saveStudioLesson(ctx.db, ctx.user.id, input, ctx.storage)),

  /** The builder's preview switch: the lesson opens for everyone once the course is published. */
  setPreview: courseEditorProcedure
    .input(lessonRef.extend({ isPreview: z.boolean() }))
    .mutation(({ ctx, input }) => setStudioLessonPreview(ctx.db, ctx.user.id, input)),

  deleteLesson: courseEditorProcedure
    .input(lessonRef)
    .mutation(({ ctx, input }) => deleteStudioLesson(ctx.db, ctx.user.id, input, ctx.storage)),
})
