// Live sessions (issue 34): one line per procedure; who may do what is the flow's (flows/live-sessions.ts).
import { staffRoleNeedsTwoFactor } from '../../src-shared/roles.ts'
import {
  createSessionInput,
  recordingInput,
  sessionRef,
  upcomingInput,
  updateSessionInput,
} from '../../src-shared/schemas/live.ts'
import {
  attachRecording,
  cancelWholeSession,
  courseLessons,
  editSession,
  type LiveActor,
  leaveSession,
  liveSessionsPage,
  registerForSession,
  scheduleSession,
  sessionAttendance,
  studioSessions,
  upcomingLiveSessions,
} from '../flows/live-sessions.ts'
import type { Context } from '../trpc/context.ts'
import { authedProcedure, router } from '../trpc/init.ts'

type Authed = Context & { user: NonNullable<Context['user']> }

/** Staff rights count only with the second factor STAFF_2FA requires of admins and the owner. */
function actorOf(ctx: Authed): LiveActor {
  const { user, config } = ctx
  const needsFactor =
    config.staffTwoFactor === 'required' && staffRoleNeedsTwoFactor(user.role) && !user.twoFactorEnabled
  return { id: user.id, role: user.role, staff: !needsFactor }
}

export const liveRouter = router({
  list: authedProcedure.query(({ ctx }) => liveSessionsPage(ctx.db, actorOf(ctx))),
  upcoming: authedProcedure
    .input(upcomingInput)
    .query(({ ctx, input }) => upcomingLiveSessions(ctx.db, actorOf(ctx), input.courseId)),
  register: authedProcedure
    .input(sessionRef)
    .mutation(({ ctx, input }) => registerForSession(ctx.db, actorOf(ctx), input.sessionId, ctx.publicUrl)),
  cancel: authedProcedure
    .input(sessionRef)
    .mutation(({ ctx, input }) => leaveSession(ctx.db, actorOf(ctx), input.sessionId, ctx.publicUrl)),
  studio: authedProcedure.query(({ ctx }) => studioSessions(ctx.db, actorOf(ctx))),
  schedule: authedProcedure
    .input(createSessionInput)
    .mutation(({ ctx, input }) => scheduleSession(ctx.db, actorOf(ctx), input)),
  update: authedProcedure
    .input(updateSessionInput)
    .mutation(({ ctx, input }) => editSession(ctx.db, actorOf(ctx), input, ctx.config.publicUrl)),
  cancelSession: authedProcedure
    .input(sessionRef)
    .mutation(({ ctx, input }) => cancelWholeSession(ctx.db, actorOf(ctx), input.sessionId, ctx.config.publicUrl)),
  recording: authedProcedure
    .input(recordingInput)
    .mutation(({ ctx, input }) => attachRecording(ctx.db, actorOf(ctx), input)),
  lessons: authedProcedure
    .input(sessionRef)
    .query(({ ctx, input }) => courseLessons(ctx.db, actorOf(ctx), input.sessionId)),
  attendance: authedProcedure
    .input(sessionRef)
    .query(({ ctx, input }) => sessionAttendance(ctx.db, actorOf(ctx), input.sessionId)),
})
