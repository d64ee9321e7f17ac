// Gifts (issue 32): buy a course for someone, see and resend one's gifts, claim a gift with its link's token.
import {
  claimGiftInput,
  claimWaitingGiftInput,
  giftCheckoutInput,
  resendGiftInput,
} from '../../src-shared/schemas/gifts.ts'
import { claimGift, claimWaitingGift, giftPreview, giftsWaitingFor } from '../flows/gift-delivery.ts'
import { listMyGifts, resendGift, startGiftCheckout } from '../flows/gift-purchase.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const giftsRouter = router({
  checkout: authedProcedure
    .input(giftCheckoutInput)
    .mutation(({ ctx, input }) => startGiftCheckout(ctx, ctx.user, input)),
  mine: authedProcedure.query(({ ctx }) => listMyGifts(ctx.db, ctx.user.id)),
  resend: authedProcedure
    .input(resendGiftInput)
    .mutation(({ ctx, input }) => resendGift(ctx.db, ctx.limiter, ctx.user, input.giftId, input.recipientEmail)),
  /**
   * What the link gives, before claiming it, and whether the signed-in person already holds its course. A query with a
   * token goes as a POST (decision 0129).
   */
  preview: publicProcedure
    .input(claimGiftInput)
    .query(({ ctx, input }) => giftPreview(ctx.db, input.token, ctx.user?.id ?? null)),
  /** Gifts mailed to the signed-in account's verified address and not claimed (decision 0146). */
  waiting: authedProcedure.query(({ ctx }) => giftsWaitingFor(ctx.db, ctx.user.id)),
  /** Claims one of those, without the link: the address it was sent to is the account's own. */
  claimWaiting: authedProcedure
    .input(claimWaitingGiftInput)
    .mutation(({ ctx, input }) => claimWaitingGift(ctx.db, ctx.user.id, input.giftId)),
  /** A mutation (a POST): the token never rides in a URL the server logs. */
  claim: authedProcedure
    .input(claimGiftInput)
    .mutation(({ ctx, input }) => claimGift(ctx.db, ctx.user.id, input.token)),
})
