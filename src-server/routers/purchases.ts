// What the signed-in user has bought: entitlements (premium, owned courses), order history and courses.
import { getEntitlements, listEnrolledCourses, listOrdersForUser } from '../orders/queries.ts'
import { authedProcedure, publicProcedure, router } from '../trpc/init.ts'

const VISITOR = { isPremium: false, plan: null, renewsAt: null, courseIds: [] as string[] }

export const purchasesRouter = router({
  /** Visitors get the empty entitlement, so the header and course buttons can ask without an error. */
  entitlements: publicProcedure.query(({ ctx }) => (ctx.user ? getEntitlements(ctx.db, ctx.user.id) : VISITOR)),
  /** The premium account page: who, and what the subscription says. */
  membership: authedProcedure.query(async ({ ctx }) => ({
    name: `${ctx.user.firstName} ${ctx.user.lastName}`.trim(),
    email: ctx.user.email,
    ...(await getEntitlements(ctx.db, ctx.user.id)),
  })),
  orders: authedProcedure.query(({ ctx }) => listOrdersForUser(ctx.db, ctx.user.id)),
  myCourses: authedProcedure.query(({ ctx }) => listEnrolledCourses(ctx.db, ctx.user.id)),
})
