import { createCallerFactory, router } from '../trpc/init.ts'
import { catalogRouter } from './catalog.ts'
import { contactRouter } from './contact.ts'
import { contentRouter } from './content.ts'
import { plansRouter } from './plans.ts'
import { servicesRouter } from './services.ts'

export const appRouter = router({
  catalog: catalogRouter,
  services: servicesRouter,
  plans: plansRouter,
  content: contentRouter,
  contact: contactRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
