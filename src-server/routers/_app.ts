import { createCallerFactory, router } from '../trpc/init.ts'
import { adminRouter } from './admin/index.ts'
import { catalogRouter } from './catalog.ts'

export const appRouter = router({
  catalog: catalogRouter,
  admin: adminRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
