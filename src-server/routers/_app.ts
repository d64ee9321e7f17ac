import { createCallerFactory, router } from '../trpc/init.ts'
import { authRouter } from './auth.ts'
import { catalogRouter } from './catalog.ts'
import { profileRouter } from './profile.ts'

export const appRouter = router({
  auth: authRouter,
  catalog: catalogRouter,
  profile: profileRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
