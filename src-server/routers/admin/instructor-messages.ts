// Messages to instructors as staff see them (issue 34): reported threads and every block, for editors and up; a
// thread nobody reported is not theirs to read (the flow answers it as not found), except a house course's, which
// staff answer through the instructors' own procedures (decision 0140): this inbox lists them.
import { inboxInput, threadRef } from '../../../src-shared/schemas/instructor-messages.ts'
import { houseInbox, staffConversation, staffOverview } from '../../flows/instructor-messages.ts'
import { router, staffProcedure } from '../../trpc/init.ts'

export const adminInstructorMessagesRouter = router({
  overview: staffProcedure('editor').query(({ ctx }) => staffOverview(ctx.db)),
  houseInbox: staffProcedure('editor')
    .input(inboxInput)
    .query(({ ctx, input }) => houseInbox(ctx.db, ctx.user, input)),
  thread: staffProcedure('editor')
    .input(threadRef)
    .query(({ ctx, input }) => staffConversation(ctx.db, ctx.user, input.threadId)),
})
