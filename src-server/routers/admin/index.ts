// The admin area's routers, one per screen. Every procedure checks the role on the server (see
// tests/integration/team/admin-authorization.test.ts, which fails for a procedure missing from its table).

import { router } from '../../trpc/init.ts'
import { adminAuditRouter } from './audit.ts'
import { adminCategoriesRouter } from './categories.ts'
import { adminCouponsRouter } from './coupons.ts'
import { adminCourseReviewsRouter } from './course-reviews.ts'
import { adminCoursesRouter } from './courses.ts'
import { adminCreatorApplicationsRouter } from './creator-applications.ts'
import { adminCustomersRouter } from './customers.ts'
import { adminDashboardRouter } from './dashboard.ts'
import { adminFinanceRouter } from './finance.ts'
import { adminInstructorMessagesRouter } from './instructor-messages.ts'
import { adminLiveChatRouter } from './live-chat.ts'
import { adminOrdersRouter } from './orders.ts'
import { adminOutboxRouter } from './outbox.ts'
import { adminReviewsRouter } from './reviews.ts'
import { adminServiceOrdersRouter } from './service-orders.ts'
import { adminSessionRouter } from './session.ts'
import { adminSupportRouter } from './support.ts'
import { adminTeamRouter } from './team.ts'

export const adminRouter = router({
  session: adminSessionRouter,
  dashboard: adminDashboardRouter,
  courses: adminCoursesRouter,
  categories: adminCategoriesRouter,
  team: adminTeamRouter,
  audit: adminAuditRouter,
  orders: adminOrdersRouter,
  customers: adminCustomersRouter,
  outbox: adminOutboxRouter,
  serviceOrders: adminServiceOrdersRouter,
  reviews: adminReviewsRouter,
  courseReviews: adminCourseReviewsRouter,
  creatorApplications: adminCreatorApplicationsRouter,
  finance: adminFinanceRouter,
  coupons: adminCouponsRouter,
  instructorMessages: adminInstructorMessagesRouter,
  support: adminSupportRouter,
  liveChat: adminLiveChatRouter,
})
