import { CONTACT_SUCCESS_MESSAGE, contactMessageSchema } from '../../src-shared/schemas/contact.ts'
import { submitContactMessage } from '../contact/messages.ts'
import { publicProcedure, router } from '../trpc/init.ts'

export const contactRouter = router({
  send: publicProcedure.input(contactMessageSchema).mutation(async ({ ctx, input }) => {
    const id = await submitContactMessage(ctx.db, input)
    return { id, message: CONTACT_SUCCESS_MESSAGE }
  }),
})
