// The signed-in user's cart. Visitors get null from `list` (the page shows 'Please Log In') and 0 from `count`.
import { TRPCError } from '@trpc/server'
import { CART_MESSAGES, cartItemIdInput, cartItemInput } from '../../src-shared/schemas/cart.ts'
import { applyCouponInput } from '../../src-shared/schemas/promotions.ts'
import { clearCart, countCartItems } from '../cart/repository.ts'
import { addToCart } from '../flows/add-to-cart.ts'
import { applyCoupon, cartWithCoupon, removeCoupon, removeLine } from '../flows/coupon-cart.ts'
import { cheapestPackageIds } from '../services/repository.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const cartRouter = router({
  /** Lines with their coupon discount and the totals after it (flows/coupon-cart.ts). */
  list: publicProcedure.query(({ ctx }) => (ctx.user ? cartWithCoupon(ctx.db, ctx.user.id) : null)),

  /** serviceId → its cheapest package id: what a service card's Add to Cart adds. */
  cheapestPackages: publicProcedure.query(({ ctx }) => cheapestPackageIds(ctx.db)),

  count: publicProcedure.query(async ({ ctx }) => (ctx.user ? countCartItems(ctx.db, ctx.user.id) : 0)),

  add: publicProcedure.input(cartItemInput).mutation(async ({ ctx, input }) => {
    if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: CART_MESSAGES.loginToAdd })
    const { title, replaced } = await addToCart(ctx.db, ctx.user.id, input)
    return { kind: input.kind, title, replaced: replaced ?? null }
  }),

  /** Removing the line a code applied to removes the code too. */
  remove: authedProcedure
    .input(cartItemIdInput)
    .mutation(({ ctx, input }) => removeLine(ctx.db, ctx.user.id, input.itemId)),

  /** 'Apply code': one per cart; each refusal says why. */
  applyCoupon: authedProcedure.input(applyCouponInput).mutation(({ ctx, input }) =>
    applyCoupon(ctx.db, ctx.user.id, input.code, {
      limiter: ctx.limiter,
      clientIp: ctx.clientIp,
      onError: (error) => ctx.log.warn({ err: error }, 'rate limiter unavailable; coupon code allowed'),
    }),
  ),

  removeCoupon: authedProcedure.mutation(({ ctx }) => removeCoupon(ctx.db, ctx.user.id)),

  clear: authedProcedure.mutation(async ({ ctx }) => ({ removed: await clearCart(ctx.db, ctx.user.id) })),
})
