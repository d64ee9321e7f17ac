// Checkout: start a payment, confirm a bank transfer, confirm a card payment from the success page.
import { confirmSessionInput, orderIdInput, startCheckoutInput } from '../../src-shared/schemas/cart.ts'
import { awaitTransfer } from '../orders/pending.ts'
import { cancelPendingOrder, resumeCheckout } from '../payments/abandoned.ts'
import { startCheckout } from '../payments/checkout.ts'
import { paymentsOf } from '../payments/config.ts'
import { confirmCheckout } from '../payments/confirm.ts'
import { paymentOptions } from '../payments/options.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const paymentRouter = router({
  options: authedProcedure.query(({ ctx }) => paymentOptions(ctx.db, paymentsOf(ctx.config), ctx.user.id)),

  start: authedProcedure.input(startCheckoutInput).mutation(({ ctx, input }) =>
    startCheckout(
      {
        db: ctx.db,
        payments: paymentsOf(ctx.config),
        publicUrl: ctx.config.publicUrl,
        limiter: ctx.limiter,
        onLimiterError: (error) => ctx.req?.log.warn({ err: error }, 'rate limiter unavailable; checkout allowed'),
      },
      ctx.user,
      input,
    ),
  ),

  /** 'I've Made the Transfer'. */
  confirmBankTransfer: authedProcedure
    .input(orderIdInput)
    .mutation(({ ctx, input }) => awaitTransfer(ctx.db, ctx.user.id, input.orderId)),

  /** /account → Resume payment: the pending card order's Stripe page again. */
  resume: authedProcedure
    .input(orderIdInput)
    .mutation(({ ctx, input }) => resumeCheckout(ctx.db, paymentsOf(ctx.config).stripe, ctx.user.id, input.orderId)),

  /** /account or the cart page → Cancel: the pending order closes, its lines return to the cart. */
  cancelOrder: authedProcedure
    .input(orderIdInput)
    .mutation(({ ctx, input }) =>
      cancelPendingOrder(ctx.db, paymentsOf(ctx.config).stripe, ctx.user.id, input.orderId),
    ),

  /** The success page. */
  confirm: authedProcedure
    .input(confirmSessionInput)
    .mutation(({ ctx, input }) => confirmCheckout(ctx.db, paymentsOf(ctx.config), ctx.user.id, input.sessionId)),
})
