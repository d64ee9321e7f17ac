import { createCallerFactory, router } from '../trpc/init.ts'
import { adminRouter } from './admin/index.ts'
import { analyticsRouter } from './analytics.ts'
import { apiKeysRouter } from './api-keys.ts'
import { authRouter } from './auth.ts'
import { bundlesRouter } from './bundles.ts'
import { cartRouter } from './cart.ts'
import { cartRemindersRouter } from './cart-reminders.ts'
import { catalogRouter } from './catalog.ts'
import { contactRouter } from './contact.ts'
import { contentRouter } from './content.ts'
import { creatorUploadsRouter } from './creator-uploads.ts'
import { creatorsRouter } from './creators.ts'
import { domainsRouter } from './domains.ts'
import { dripRouter } from './drip.ts'
import { earningsRouter } from './earnings.ts'
import { giftsRouter } from './gifts.ts'
import { instructorMessagesRouter } from './instructor-messages.ts'
import { learningRouter } from './learning.ts'
import { liveRouter } from './live.ts'
import { liveChatRouter } from './live-chat.ts'
import { membershipRouter } from './membership.ts'
import { paymentsRouter } from './payments.ts'
import { plansRouter } from './plans.ts'
import { premiumPoolRouter } from './premium-pool.ts'
import { privacyRouter } from './privacy.ts'
import { profileRouter } from './profile.ts'
import { purchasesRouter } from './purchases.ts'
import { questionsRouter } from './questions.ts'
import { quizzesRouter } from './quizzes.ts'
import { reviewsRouter } from './reviews.ts'
import { schoolSsoRouter } from './school-sso.ts'
import { schoolsRouter } from './schools.ts'
import { securityRouter } from './security.ts'
import { serviceOrdersRouter } from './service-orders.ts'
import { servicesRouter } from './services.ts'
import { studioRouter } from './studio.ts'
import { studioCouponsRouter } from './studio-coupons.ts'
import { studioPublishingRouter } from './studio-publishing.ts'
import { webhooksRouter } from './webhooks.ts'

export const appRouter = router({
  auth: authRouter,
  catalog: catalogRouter,
  services: servicesRouter,
  plans: plansRouter,
  content: contentRouter,
  contact: contactRouter,
  liveChat: liveChatRouter,
  profile: profileRouter,
  cart: cartRouter,
  payments: paymentsRouter,
  gifts: giftsRouter,
  cartReminders: cartRemindersRouter,
  purchases: purchasesRouter,
  membership: membershipRouter,
  learning: learningRouter,
  quizzes: quizzesRouter,
  drip: dripRouter,
  questions: questionsRouter,
  instructorMessages: instructorMessagesRouter,
  live: liveRouter,
  serviceOrders: serviceOrdersRouter,
  reviews: reviewsRouter,
  security: securityRouter,
  creatorUploads: creatorUploadsRouter,
  studioPublishing: studioPublishingRouter,
  studio: studioRouter,
  studioCoupons: studioCouponsRouter,
  creators: creatorsRouter,
  earnings: earningsRouter,
  analytics: analyticsRouter,
  schools: schoolsRouter,
  domains: domainsRouter,
  apiKeys: apiKeysRouter,
  schoolSso: schoolSsoRouter,
  webhooks: webhooksRouter,
  privacy: privacyRouter,
  premiumPool: premiumPoolRouter,
  admin: adminRouter,
  bundles: bundlesRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
