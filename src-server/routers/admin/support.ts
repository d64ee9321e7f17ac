// The support inbox (/admin/support): contact messages by when their reply is due, marked answered by editors and
// up; admins assign Enterprise members their dedicated success manager.
import { z } from 'zod'
import { ADMIN_PAGE_SIZE } from '../../../src-shared/schemas/admin.ts'
import { assignSuccessManagerInput, supportInboxInput, supportReplyInput } from '../../../src-shared/schemas/support.ts'
import { listSuccessManagers, removeSuccessManager } from '../../contact/success-managers.ts'
import { listSupportInbox, markAnswered, repliesTo, replyToMessage } from '../../contact/support-inbox.ts'
import { assignManager } from '../../flows/support.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

const idInput = z.object({ id: z.uuid() })

export const adminSupportRouter = router({
  inbox: staffProcedure('viewer')
    .input(supportInboxInput)
    .query(({ ctx, input }) => listSupportInbox(ctx.db, { ...input, pageSize: ADMIN_PAGE_SIZE })),

  markAnswered: staffProcedure('editor')
    .input(idInput)
    .mutation(({ ctx, input }) => markAnswered(ctx.db, actorOf(ctx.user), input.id)),

  /** Answer from the inbox: kept, mailed to the sender, the message marked answered (decision 0100). */
  reply: staffProcedure('editor')
    .input(supportReplyInput)
    .mutation(({ ctx, input }) => replyToMessage(ctx.db, actorOf(ctx.user), input.id, input.body)),

  replies: staffProcedure('viewer')
    .input(idInput)
    .query(({ ctx, input }) => repliesTo(ctx.db, input.id)),

  managers: staffProcedure('viewer').query(({ ctx }) => listSuccessManagers(ctx.db)),

  assignManager: staffProcedure('admin')
    .input(assignSuccessManagerInput)
    .mutation(({ ctx, input }) => assignManager(ctx.db, actorOf(ctx.user), input)),

  removeManager: staffProcedure('admin')
    .input(z.object({ memberId: z.uuid() }))
    .mutation(({ ctx, input }) => removeSuccessManager(ctx.db, actorOf(ctx.user), input.memberId)),
})
