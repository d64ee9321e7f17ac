// Messages to instructors (issue 34): one line per procedure; who may do what is the flow's
// (flows/instructor-messages.ts): the member's side, the studio inbox of the course's instructors.
import {
  blockSenderInput,
  closeThreadInput,
  courseRef,
  inboxInput,
  messageMailInput,
  replyInput,
  reportThreadInput,
  sendToInstructorInput,
  threadRef,
} from '../../src-shared/schemas/instructor-messages.ts'
import {
  blockSender,
  closeThread,
  markThreadRead,
  memberConversation,
  memberInbox,
  messageMail,
  replyToMember,
  reportThread,
  sendToInstructor,
  setMessageMail,
  studioConversation,
  studioInbox,
} from '../flows/instructor-messages.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const instructorMessagesRouter = router({
  /** The member's threads with their unread counts. */
  mine: authedProcedure.query(({ ctx }) => memberInbox(ctx.db, ctx.user)),
  conversation: authedProcedure
    .input(courseRef)
    .query(({ ctx, input }) => memberConversation(ctx.db, ctx.user, input.courseId)),
  send: authedProcedure
    .input(sendToInstructorInput)
    .mutation(({ ctx, input }) => sendToInstructor(ctx.db, ctx.limiter, ctx.user, input, ctx.config.publicUrl)),
  /** Marks the thread read for its member or instructor: the page asks it once the conversation is on screen. */
  markRead: authedProcedure
    .input(threadRef)
    .mutation(({ ctx, input }) => markThreadRead(ctx.db, ctx.user, input.threadId)),
  inbox: authedProcedure.input(inboxInput).query(({ ctx, input }) => studioInbox(ctx.db, ctx.user, input)),
  thread: authedProcedure
    .input(threadRef)
    .query(({ ctx, input }) => studioConversation(ctx.db, ctx.user, input.threadId)),
  reply: authedProcedure
    .input(replyInput)
    .mutation(({ ctx, input }) => replyToMember(ctx.db, ctx.limiter, ctx.user, input, ctx.config.publicUrl)),
  close: authedProcedure.input(closeThreadInput).mutation(({ ctx, input }) => closeThread(ctx.db, ctx.user, input)),
  block: authedProcedure.input(blockSenderInput).mutation(({ ctx, input }) => blockSender(ctx.db, ctx.user, input)),
  report: authedProcedure
    .input(reportThreadInput)
    .mutation(({ ctx, input }) => reportThread(ctx.db, ctx.limiter, ctx.user, input)),
  mailSetting: authedProcedure.query(({ ctx }) => messageMail(ctx.db, ctx.user)),
  setMailSetting: authedProcedure
    .input(messageMailInput)
    .mutation(({ ctx, input }) => setMessageMail(ctx.db, ctx.user, input.dailyDigest)),
})
