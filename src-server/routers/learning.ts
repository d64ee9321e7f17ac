// The learner's side: the player's course and lessons, progress writes, "My courses" with progress, certificates,
// and a school's invitation to take a course.
// Every rule is in learning/ and access/; lesson content leaves only through learning.lesson, after the access check.
import { z } from 'zod'
import { courseIdSchema } from '../../src-shared/schemas/catalog.ts'
import { inviteTokenInput } from '../../src-shared/schemas/course-review.ts'
import {
  certificateIdInput,
  lessonCompletionInput,
  lessonRefInput,
  videoProgressInput,
} from '../../src-shared/schemas/learning.ts'
import { withStaffReach } from '../auth/require-user.ts'
import { certificateView } from '../flows/certificates.ts'
import { acceptEnrolmentInvite, describeEnrolmentInvite } from '../flows/enrolment-invites.ts'
import { openLesson, playerCourse } from '../flows/lesson-player.ts'
import { myLearning } from '../flows/my-learning.ts'
import { offlinePasses } from '../flows/offline-lessons.ts'
import { saveVideoProgress, setLessonCompleted } from '../flows/save-progress.ts'
import type { Context } from '../trpc/context.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

/** The viewer; an admin or owner without the second factor STAFF_2FA requires reads as a customer (decision 0052),
 * here as in saving progress and keeping lessons offline. */
const reaching = (ctx: Context) => ctx.user && withStaffReach(ctx.config, ctx.user)

export const learningRouter = router({
  /** The curriculum with checks and locks, progress and the lesson to resume (visitors see the locks too). */
  course: publicProcedure
    .input(z.object({ courseId: courseIdSchema }))
    .query(({ ctx, input }) => playerCourse(ctx.db, reaching(ctx), input.courseId, ctx.publicUrl)),

  /** One lesson: content when the user may open it, else its title with `locked: true`. */
  lesson: publicProcedure
    .input(lessonRefInput)
    .query(({ ctx, input }) => openLesson(ctx.db, reaching(ctx), input.courseId, input.lessonId)),

  saveProgress: authedProcedure
    .input(videoProgressInput)
    .mutation(({ ctx, input }) =>
      saveVideoProgress(ctx.db, withStaffReach(ctx.config, ctx.user), input, ctx.publicUrl),
    ),

  setCompleted: authedProcedure
    .input(lessonCompletionInput)
    .mutation(({ ctx, input }) =>
      setLessonCompleted(ctx.db, withStaffReach(ctx.config, ctx.user), input, ctx.publicUrl),
    ),

  /** Whether the learner may keep these courses' lessons offline, and until when (asked on saving and at each start). */
  offlinePasses: authedProcedure
    .input(z.object({ courseIds: z.array(courseIdSchema).min(1).max(200) }))
    .query(({ ctx, input }) => offlinePasses(ctx.db, withStaffReach(ctx.config, ctx.user), input.courseIds)),

  /** Reads as the player does (reaching): a course it shows as done may complete here (flows/my-learning.ts). */
  myCourses: authedProcedure.query(({ ctx }) =>
    myLearning(ctx.db, withStaffReach(ctx.config, ctx.user), ctx.publicUrl),
  ),

  certificate: publicProcedure
    .input(certificateIdInput)
    .query(({ ctx, input }) => certificateView(ctx.db, input.id, ctx.publicUrl)),

  /** A school's invitation to take a course, opened from the e-mail by a signed-in person (decision 0128). */
  enrolmentInvitation: authedProcedure
    .input(inviteTokenInput)
    .query(({ ctx, input }) => describeEnrolmentInvite(ctx.db, ctx.user, input.token)),

  acceptEnrolmentInvitation: authedProcedure
    .input(inviteTokenInput)
    .mutation(({ ctx, input }) => acceptEnrolmentInvite(ctx.db, ctx.user, input.token)),
})
