// What the signed-in user has bought: entitlements (premium, owned courses), order history and courses.

import { fullName } from '../../src-shared/names.ts'
import { documentInput, freeEnrolmentInput, refundRequestInput } from '../../src-shared/schemas/orders.ts'
import { listOwnedCourses } from '../access/courses.ts'
import { enrolForFree } from '../flows/free-enrolment.ts'
import { orderHistory } from '../flows/order-history.ts'
import { readDocument } from '../orders/documents.ts'
import { requestRefund } from '../orders/refund-requests.ts'
import { entitlementsOf, NO_ENTITLEMENTS } from '../subscriptions/premium.ts'
import { authedProcedure, publicProcedure, router, staffReachProcedure } from '../trpc/init.ts'

export const purchasesRouter = router({
  /** Visitors get the empty entitlement, so the header and course buttons can ask without an error. */
  entitlements: publicProcedure.query(({ ctx }) => (ctx.user ? entitlementsOf(ctx.db, ctx.user) : NO_ENTITLEMENTS)),
  /** The premium account page: who, and what the subscription says. */
  membership: authedProcedure.query(async ({ ctx }) => ({
    name: fullName(ctx.user.firstName, ctx.user.lastName),
    email: ctx.user.email,
    ...(await entitlementsOf(ctx.db, ctx.user)),
  })),
  /** Order history; unpaid bank-transfer and PayPal orders carry how to pay them (shown until paid). */
  orders: authedProcedure.query(({ ctx }) => orderHistory(ctx.db, ctx.payments, ctx.user.id)),
  /** An invoice or credit note for its print page: the buyer it names, or staff (admins with their second factor). */
  document: staffReachProcedure
    .input(documentInput)
    .query(({ ctx, input }) => readDocument(ctx.db, ctx.user, input.kind, input.id)),
  /** Enrol for free: a course priced 0, at once, without cart or checkout. */
  enrolFree: authedProcedure
    .input(freeEnrolmentInput)
    .mutation(({ ctx, input }) => enrolForFree(ctx.db, ctx.user.id, input.courseId)),
  /** Request a refund of a course line (30 days, reason required, once per line). */
  requestRefund: authedProcedure
    .input(refundRequestInput)
    .mutation(({ ctx, input }) => requestRefund(ctx.db, ctx.user.id, input)),
  myCourses: authedProcedure.query(({ ctx }) => listOwnedCourses(ctx.db, ctx.user.id)),
})
