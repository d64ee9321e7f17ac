// Checkout. The client chooses only the currency group of its cart and the method; the server builds the
// order from the cart and the catalogue, and asks Stripe, PayPal or the bank details for the next step.
import { TRPCError } from '@trpc/server'
import { sql } from 'kysely'
import {
  confirmSessionInput,
  orderIdInput,
  PAYMENT_MESSAGES,
  startCheckoutInput,
} from '../../src-shared/schemas/cart.ts'
import { createOrderFromCart } from '../orders/create.ts'
import { fulfilOrder } from '../orders/fulfil.ts'
import { confirmBankTransfer, markOrderFailed } from '../orders/service.ts'
import { checkoutSessionParams, isSessionPaid, orderIdOf, subscriptionIdOf } from '../payments/checkout.ts'
import { defaultPayments } from '../payments/config.ts'
import { paypalMeLink } from '../payments/paypal.ts'
import { allowAttempt, type RateRule } from '../security/rate-limit.ts'
import { authedProcedure, router } from '../trpc/init.ts'

/** Each start creates an order: generous for a shopper, tight for a script. */
const CHECKOUT_RULE: RateRule = { max: 20, windowMs: 10 * 60_000 }

export const paymentRouter = router({
  /** Which methods this store offers, and PayPal hosted buttons of services in the cart. */
  options: authedProcedure.query(async ({ ctx }) => {
    const payments = ctx.config.payments ?? defaultPayments
    const buttons = await ctx.db
      .selectFrom('cart_items as ci')
      .innerJoin('service_packages as sp', 'sp.id', 'ci.service_package_id')
      .innerJoin('services as s', 's.id', 'sp.service_id')
      .select(['s.id', 's.title', 's.paypal'])
      .where('ci.user_id', '=', ctx.user.id)
      .where(sql<boolean>`(s.paypal->>'enabled')::boolean`)
      .distinct()
      .execute()
    return {
      card: Boolean(payments.stripe),
      paypal: Boolean(payments.paypalMeUrl),
      paypalButtons: buttons
        .filter((row) => row.paypal?.clientId && row.paypal.hostedButtonId)
        .map((row) => ({
          serviceId: row.id,
          title: row.title,
          clientId: row.paypal!.clientId,
          hostedButtonId: row.paypal!.hostedButtonId,
        })),
    }
  }),

  start: authedProcedure.input(startCheckoutInput).mutation(async ({ ctx, input }) => {
    const payments = ctx.config.payments ?? defaultPayments
    const log = (error: unknown) => ctx.req?.log.warn({ err: error }, 'rate limiter unavailable; checkout allowed')
    if (!(await allowAttempt(ctx.limiter, CHECKOUT_RULE, `checkout:${ctx.user.id}`, log))) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: PAYMENT_MESSAGES.tooManyCheckouts })
    }
    if (input.method === 'card' && !payments.stripe) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.cardNotConfigured })
    }
    if (input.method === 'paypal' && !payments.paypalMeUrl) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.paypalNotConfigured })
    }
    const order = await createOrderFromCart(ctx.db, ctx.user.id, input.currency, input.method, payments.referencePrefix)
    const summary = {
      orderId: order.id,
      reference: order.reference,
      totalMinor: order.totalMinor,
      currency: order.currency,
    }

    if (input.method === 'bank_transfer') return { method: 'bank_transfer' as const, ...summary, bank: payments.bank }
    if (input.method === 'paypal') {
      return {
        method: 'paypal' as const,
        ...summary,
        url: paypalMeLink(payments.paypalMeUrl!, order.totalMinor, order.currency),
      }
    }

    let params: ReturnType<typeof checkoutSessionParams>
    try {
      params = checkoutSessionParams(order, ctx.user.email, ctx.config.publicUrl)
    } catch (error) {
      await markOrderFailed(ctx.db, order.id)
      throw error
    }
    let session: { id: string; url: string | null }
    try {
      session = await payments.stripe!.checkout.sessions.create(params, { idempotencyKey: `order-${order.id}` })
    } catch (error) {
      await markOrderFailed(ctx.db, order.id)
      throw new TRPCError({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.sessionFailed, cause: error })
    }
    await ctx.db
      .updateTable('orders')
      .set({ stripe_session_id: session.id, updated_at: new Date() })
      .where('id', '=', order.id)
      .execute()
    if (!session.url) {
      await markOrderFailed(ctx.db, order.id)
      throw new TRPCError({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.noCheckoutUrl })
    }
    return { method: 'card' as const, ...summary, url: session.url }
  }),

  /** 'I've Made the Transfer'. */
  confirmBankTransfer: authedProcedure
    .input(orderIdInput)
    .mutation(({ ctx, input }) => confirmBankTransfer(ctx.db, ctx.user.id, input.orderId)),

  /** The success page: asks Stripe about the session and fulfils through the same exactly-once path. */
  confirm: authedProcedure.input(confirmSessionInput).mutation(async ({ ctx, input }) => {
    const stripe = (ctx.config.payments ?? defaultPayments).stripe
    if (!stripe) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.cardNotConfigured })
    const order = await ctx.db
      .selectFrom('orders')
      .select(['id', 'reference', 'currency', 'total_minor'])
      .where('stripe_session_id', '=', input.sessionId)
      .where('user_id', '=', ctx.user.id)
      .executeTakeFirst()
    if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: PAYMENT_MESSAGES.noSession })
    let session: Awaited<ReturnType<typeof stripe.checkout.sessions.retrieve>>
    try {
      session = await stripe.checkout.sessions.retrieve(input.sessionId)
    } catch (error) {
      throw new TRPCError({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.processingError, cause: error })
    }
    if (orderIdOf(session) !== order.id) throw new TRPCError({ code: 'NOT_FOUND', message: PAYMENT_MESSAGES.noSession })
    if (isSessionPaid(session)) {
      await fulfilOrder(ctx.db, order.id, { source: 'stripe', stripeSubscriptionId: subscriptionIdOf(session) })
    }
    const current = await ctx.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    return {
      orderId: order.id,
      reference: order.reference,
      status: current.status,
      totalMinor: order.total_minor,
      currency: order.currency,
    }
  }),
})
