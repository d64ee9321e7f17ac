// The signed-in user's cart. Visitors get null from `list` (the page shows 'Please Log In') and 0 from `count`.
import { TRPCError } from '@trpc/server'
import { CART_MESSAGES, cartItemIdInput, cartItemInput } from '../../src-shared/schemas/cart.ts'
import { listCartWithTotals } from '../cart/lines.ts'
import { clearCart, countCartItems, removeCartItem } from '../cart/repository.ts'
import { addToCart } from '../flows/add-to-cart.ts'
import { cheapestPackageIds } from '../services/repository.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

export const cartRouter = router({
  list: publicProcedure.query(({ ctx }) => (ctx.user ? listCartWithTotals(ctx.db, ctx.user.id) : null)),

  /** serviceId → its cheapest package id: what a service card's Add to Cart adds. */
  cheapestPackages: publicProcedure.query(({ ctx }) => cheapestPackageIds(ctx.db)),

  count: publicProcedure.query(async ({ ctx }) => (ctx.user ? countCartItems(ctx.db, ctx.user.id) : 0)),

  add: publicProcedure.input(cartItemInput).mutation(async ({ ctx, input }) => {
    if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: CART_MESSAGES.loginToAdd })
    const { title, replaced } = await addToCart(ctx.db, ctx.user.id, input)
    return { kind: input.kind, title, replaced: replaced ?? null }
  }),

  remove: authedProcedure.input(cartItemIdInput).mutation(async ({ ctx, input }) => {
    const removed = await removeCartItem(ctx.db, ctx.user.id, input.itemId)
    if (!removed) throw new TRPCError({ code: 'NOT_FOUND', message: 'Item not found in your cart' })
    return { removed }
  }),

  clear: authedProcedure.mutation(async ({ ctx }) => ({ removed: await clearCart(ctx.db, ctx.user.id) })),
})
