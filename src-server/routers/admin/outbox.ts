// The mail outbox (/admin/outbox): what the shop sent or tried to send, for admins and the owner. Bodies carry
// single-use links (verification, password reset, invitations, gifts) and codes (a confirmation code): once a mail
// server carries a message they are its recipient's alone, and their tokens and codes are shown redacted (an admin could otherwise reset the owner's password
// and open the link); a message only printed (no SMTP_URL) keeps them, the one way to the link on such a server.
import { z } from 'zod'
import { ADMIN_PAGE_SIZE, outboxListInput } from '../../../src-shared/schemas/admin.ts'
import { DomainError } from '../../kernel/errors.ts'
import { redactMailText } from '../../kernel/redact.ts'
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
      return message.status === 'logged' ? message : { ...message, text: redactMailText(message.text) }
    }),

  resend: staffProcedure('admin')
    .input(idInput)
    .mutation(({ ctx, input }) => resendFailedMail(ctx.db, actorOf(ctx.user), input.id)),
})
