import { createCallerFactory, router } from '../trpc/init.ts'
import { cartRouter } from './cart.ts'
import { catalogRouter } from './catalog.ts'
import { paymentRouter } from './payment.ts'
import { purchasesRouter } from './purchases.ts'

export const appRouter = router({
  catalog: catalogRouter,
  cart: cartRouter,
  payment: paymentRouter,
  purchases: purchasesRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
