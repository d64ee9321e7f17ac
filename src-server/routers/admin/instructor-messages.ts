// Messages to instructors as staff see them (issue 34): reported threads and every block, for editors and up; a
// thread nobody reported is not theirs to read (the flow answers it as not found).
import { threadRef } from '../../../src-shared/schemas/instructor-messages.ts'
import { staffConversation, staffOverview } from '../../flows/instructor-messages.ts'
import { router, staffProcedure } from '../../trpc/init.ts'

export const adminInstructorMessagesRouter = router({
  overview: staffProcedure('editor').query(({ ctx }) => staffOverview(ctx.db)),
  thread: staffProcedure('editor')
    .input(threadRef)
    .query(({ ctx, input }) => staffConversation(ctx.db, ctx.user, input.threadId)),
})
