// Checkout: start a payment, confirm a bank transfer, confirm a card payment from the success page.
import { confirmSessionInput, orderIdInput, startCheckoutInput } from '../../src-shared/schemas/cart.ts'
import { cancelPendingOrder, resumeCheckout } from '../flows/abandoned-checkouts.ts'
import { awaitTransfer } from '../flows/cart-order.ts'
import { confirmCheckout } from '../flows/confirm-checkout.ts'
import { paymentOptions } from '../flows/payment-options.ts'
import { startCheckout } from '../flows/start-checkout.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const paymentsRouter = router({
  options: authedProcedure.query(({ ctx }) => paymentOptions(ctx.db, ctx.payments, ctx.user.id)),

  start: authedProcedure.input(startCheckoutInput).mutation(({ ctx, input }) => startCheckout(ctx, ctx.user, input)),

  /** 'I've Made the Transfer'. */
  confirmBankTransfer: authedProcedure
    .input(orderIdInput)
    .mutation(({ ctx, input }) => awaitTransfer(ctx.db, ctx.user.id, input.orderId)),

  /** /account → Resume payment: the pending card order's Stripe page again. */
  resume: authedProcedure
    .input(orderIdInput)
    .mutation(({ ctx, input }) => resumeCheckout(ctx.db, ctx.stripe, ctx.user.id, input.orderId)),

  /** /account or the cart page → Cancel: the pending order closes (a PayPal order's lines return to the cart). */
  cancelOrder: authedProcedure
    .input(orderIdInput)
    .mutation(({ ctx, input }) => cancelPendingOrder(ctx.db, ctx.stripe, ctx.user.id, input.orderId)),

  /** The success page. */
  confirm: authedProcedure
    .input(confirmSessionInput)
    .mutation(({ ctx, input }) => confirmCheckout(ctx.db, ctx.payments, ctx.user.id, input.sessionId)),
})
