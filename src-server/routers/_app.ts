import { createCallerFactory, router } from '../trpc/init.ts'
import { catalogRouter } from './catalog.ts'

export const appRouter = router({
  catalog: catalogRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
