// The studio's publish page (/studio/courses/$courseId/publish): the checklist and review, the owner's sale
// controls, and the course's team and its earnings shares. Every procedure checks the course's role on the server (creators/course-team.ts
// through the flows): another creator's course answers NOT_FOUND; only the owner unpublishes, deletes or invites.
import {
  coInstructorRefInput,
  courseRefInput,
  courseSharesInput,
  inviteCoInstructorInput,
  inviteRefInput,
  inviteTokenInput,
} from '../../src-shared/schemas/course-review.ts'
import { deleteOwnCourse, republishCourse, unpublishCourse } from '../flows/course-publishing.ts'
import { publishPage, submitForReview, withdrawSubmission } from '../flows/course-review.ts'
import {
  acceptCourseInvite,
  cancelCourseInvite,
  describeCourseInvite,
  inviteCoInstructor,
  removeCourseCoInstructor,
  setCourseEarningShares,
  teamPanel,
} from '../flows/course-team-invites.ts'
import { authedProcedure, courseEditorProcedure, creatorProcedure, router } from '../trpc/init.ts'

export const studioPublishingRouter = router({
  page: courseEditorProcedure
    .input(courseRefInput)
    .query(({ ctx, input }) => publishPage(ctx.db, ctx.user.id, input.courseId, ctx.config.creatorLimits)),

  submit: courseEditorProcedure
    .input(courseRefInput)
    .mutation(({ ctx, input }) => submitForReview(ctx.db, ctx.user.id, input.courseId, ctx.config.creatorLimits)),

  withdraw: courseEditorProcedure
    .input(courseRefInput)
    .mutation(({ ctx, input }) => withdrawSubmission(ctx.db, ctx.user.id, input.courseId)),

  unpublish: creatorProcedure
    .input(courseRefInput)
    .mutation(({ ctx, input }) => unpublishCourse(ctx.db, ctx.user.id, input.courseId)),

  republish: creatorProcedure
    .input(courseRefInput)
    .mutation(({ ctx, input }) => republishCourse(ctx.db, ctx.user.id, input.courseId, ctx.config.creatorLimits)),

  delete: creatorProcedure
    .input(courseRefInput)
    .mutation(({ ctx, input }) => deleteOwnCourse(ctx.db, ctx.user.id, input.courseId, ctx.storage, ctx.log)),

  team: creatorProcedure
    .input(courseRefInput)
    .query(({ ctx, input }) => teamPanel(ctx.db, ctx.user.id, input.courseId, ctx.config.creatorLimits)),

  invite: creatorProcedure
    .input(inviteCoInstructorInput)
    .mutation(({ ctx, input }) => inviteCoInstructor(ctx.db, ctx.limiter, ctx.user, input, ctx.config)),

  cancelInvite: creatorProcedure
    .input(inviteRefInput)
    .mutation(({ ctx, input }) => cancelCourseInvite(ctx.db, ctx.user.id, input.courseId, input.inviteId)),

  removeCoInstructor: creatorProcedure
    .input(coInstructorRefInput)
    .mutation(({ ctx, input }) => removeCourseCoInstructor(ctx.db, ctx.user.id, input.courseId, input.userId)),

  setShares: creatorProcedure
    .input(courseSharesInput)
    .mutation(({ ctx, input }) => setCourseEarningShares(ctx.db, ctx.user.id, input)),

  /** The invitation a signed-in person opened from the e-mail (any account: the invitee need not be a creator). */
  invitation: authedProcedure
    .input(inviteTokenInput)
    .query(({ ctx, input }) => describeCourseInvite(ctx.db, ctx.user, input.token)),

  acceptInvitation: authedProcedure
    .input(inviteTokenInput)
    .mutation(({ ctx, input }) => acceptCourseInvite(ctx.db, ctx.user, input.token, ctx.config.creatorLimits)),
})
