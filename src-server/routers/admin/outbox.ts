// The mail outbox (/admin/outbox): what the shop sent or tried to send, for admins and the owner. Bodies carry
// single-use links (verification, invitations), so no lower role may read them.
import { z } from 'zod'
import { ADMIN_PAGE_SIZE, outboxListInput } from '../../../src-shared/schemas/admin.ts'
import { DomainError } from '../../kernel/errors.ts'
import { findOutboxMessage, listOutbox } from '../../mail/repository.ts'
import { resendFailedMail } from '../../mail/resend.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

const OUTBOX_PAGE_SIZE = ADMIN_PAGE_SIZE * 2
const idInput = z.object({ id: z.uuid() })

export const adminOutboxRouter = router({
  list: staffProcedure('admin')
    .input(outboxListInput)
    .query(({ ctx, input }) => listOutbox(ctx.db, { ...input, pageSize: OUTBOX_PAGE_SIZE })),

  message: staffProcedure('admin')
    .input(idInput)
    .query(async ({ ctx, input }) => {
      const message = await findOutboxMessage(ctx.db, input.id)
      if (!message) throw new DomainError('not_found', 'Message not found')
      return message
    }),

  resend: staffProcedure('admin')
    .input(idInput)
    .mutation(({ ctx, input }) => resendFailedMail(ctx.db, actorOf(ctx.user), input.id)),
})
