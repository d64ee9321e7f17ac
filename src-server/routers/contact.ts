import { CONTACT_SUCCESS_MESSAGE, CONTACT_TOO_MANY, contactMessageSchema } from '../../src-shared/schemas/contact.ts'
import { sendContactMessage, supportOf } from '../flows/support.ts'
import { reserveAttempt } from '../security/attempts.ts'
import { RATE_RULES } from '../security/rate-limit.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const contactRouter = router({
  /** Each message stores a row and mails the staff: counted per client address, every call of a batch too. */
  send: publicProcedure.input(contactMessageSchema).mutation(async ({ ctx, input }) => {
    await reserveAttempt(
      ctx.limiter,
      [{ rule: RATE_RULES.contact, key: `contact:${ctx.clientIp}` }],
      CONTACT_TOO_MANY,
      (error) => ctx.log.warn({ err: error }, 'rate limiter unavailable; message allowed'),
    )
    const id = await sendContactMessage(ctx.db, input, ctx.user?.id ?? null)
    return { id, message: CONTACT_SUCCESS_MESSAGE }
  }),

  /** The signed-in member's support: their plan's tier and reply time, and an Enterprise success manager. */
  mySupport: authedProcedure.query(({ ctx }) => supportOf(ctx.db, ctx.user.id)),
})
