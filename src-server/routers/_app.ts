import { createCallerFactory, router } from '../trpc/init.ts'
import { adminRouter } from './admin/index.ts'
import { authRouter } from './auth.ts'
import { catalogRouter } from './catalog.ts'
import { contactRouter } from './contact.ts'
import { contentRouter } from './content.ts'
import { plansRouter } from './plans.ts'
import { profileRouter } from './profile.ts'
import { servicesRouter } from './services.ts'

export const appRouter = router({
  auth: authRouter,
  catalog: catalogRouter,
  services: servicesRouter,
  plans: plansRouter,
  content: contentRouter,
  contact: contactRouter,
  profile: profileRouter,
  admin: adminRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
