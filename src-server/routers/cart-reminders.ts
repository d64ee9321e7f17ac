// Checkout recovery (issue 32): the reminder's link fills the cart again; its List-Unsubscribe link needs no log-in.
import { reminderUnsubscribeInput, restoreCartInput } from '../../src-shared/schemas/cart-reminders.ts'
import { restoreCart, unsubscribeFromReminders } from '../flows/checkout-recovery.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const cartRemindersRouter = router({
  restore: authedProcedure
    .input(restoreCartInput)
    .mutation(({ ctx, input }) => restoreCart(ctx.db, ctx.stripe, ctx.user.id, input.orderId)),
  unsubscribe: publicProcedure
    .input(reminderUnsubscribeInput)
    .mutation(({ ctx, input }) => unsubscribeFromReminders(ctx.db, input.token)),
})
