import { createCallerFactory, router } from '../trpc/init.ts'
import { adminRouter } from './admin/index.ts'
import { authRouter } from './auth.ts'
import { cartRouter } from './cart.ts'
import { catalogRouter } from './catalog.ts'
import { contactRouter } from './contact.ts'
import { contentRouter } from './content.ts'
import { creatorUploadsRouter } from './creator-uploads.ts'
import { creatorsRouter } from './creators.ts'
import { dripRouter } from './drip.ts'
import { earningsRouter } from './earnings.ts'
import { learningRouter } from './learning.ts'
import { membershipRouter } from './membership.ts'
import { paymentsRouter } from './payments.ts'
import { plansRouter } from './plans.ts'
import { profileRouter } from './profile.ts'
import { purchasesRouter } from './purchases.ts'
import { questionsRouter } from './questions.ts'
import { reviewsRouter } from './reviews.ts'
import { securityRouter } from './security.ts'
import { serviceOrdersRouter } from './service-orders.ts'
import { servicesRouter } from './services.ts'
import { studioRouter } from './studio.ts'
import { studioPublishingRouter } from './studio-publishing.ts'

export const appRouter = router({
  auth: authRouter,
  catalog: catalogRouter,
  services: servicesRouter,
  plans: plansRouter,
  content: contentRouter,
  contact: contactRouter,
  profile: profileRouter,
  cart: cartRouter,
  payments: paymentsRouter,
  purchases: purchasesRouter,
  membership: membershipRouter,
  learning: learningRouter,
  drip: dripRouter,
  questions: questionsRouter,
  serviceOrders: serviceOrdersRouter,
  reviews: reviewsRouter,
  security: securityRouter,
  creatorUploads: creatorUploadsRouter,
  studioPublishing: studioPublishingRouter,
  studio: studioRouter,
  creators: creatorsRouter,
  earnings: earningsRouter,
  admin: adminRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
