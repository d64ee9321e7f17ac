// The Orders page: everyone on the team can read; admins mark PayPal and bank-transfer orders paid (fulfilled
// through the checkout's exactly-once path) or cancel unpaid ones, refund, and end the plan a plan order started.
import { z } from 'zod'
import { ADMIN_PAGE_SIZE } from '../../../src-shared/admin.ts'
import { orderListInput } from '../../../src-shared/schemas/admin.ts'
import { staffEndMembershipInput } from '../../../src-shared/schemas/membership.ts'
import { refundDecisionInput, refundInput, refundLinesInput } from '../../../src-shared/schemas/orders.ts'
import { cancelOrderByStaff } from '../../flows/abandoned-checkouts.ts'
import { ordersForStaff } from '../../flows/membership-view.ts'
import { assignRefundLines, decideRefundRequest, listRefundRequests } from '../../flows/refunds.ts'
import { endMembershipByStaff } from '../../flows/staff-membership.ts'
import { confirmPaymentByStaff } from '../../flows/staff-order-actions.ts'
import { refundByStaff } from '../../flows/stripe-refunds.ts'
import { orderDetailForStaff } from '../../orders/refund-reads.ts'
import { countOpenRefundRequests } from '../../orders/refund-requests.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

const orderInput = z.object({ id: z.uuid() })

export const adminOrdersRouter = router({
  list: staffProcedure('viewer')
    .input(orderListInput)
    .query(async ({ ctx, input }) => {
      // One extra row tells whether a next page exists without counting the whole table.
      const rows = await ordersForStaff(ctx.db, {
        status: input.status,
        lookup: input.lookup,
        limit: ADMIN_PAGE_SIZE + 1,
        offset: (input.page - 1) * ADMIN_PAGE_SIZE,
      })
      const openRequests = await countOpenRefundRequests(ctx.db)
      return {
        items: rows.slice(0, ADMIN_PAGE_SIZE),
        page: input.page,
        hasNext: rows.length > ADMIN_PAGE_SIZE,
        openRequests,
      }
    }),

  markPaid: staffProcedure('admin')
    .input(orderInput)
    .mutation(async ({ ctx, input }) => ({
      id: input.id,
      result: await confirmPaymentByStaff(ctx.db, input.id, actorOf(ctx.user)),
    })),

  /** An order's lines, documents, refunds and refund requests (the Refund dialog and the documents' links). */
  detail: staffProcedure('viewer')
    .input(orderInput)
    .query(({ ctx, input }) => orderDetailForStaff(ctx.db, input.id)),

  /** Refund the whole order or chosen lines (card through Stripe; PayPal and bank as manual refunds). */
  refund: staffProcedure('admin')
    .input(refundInput)
    .mutation(({ ctx, input }) => refundByStaff(ctx.db, ctx.stripe, input, actorOf(ctx.user), ctx.config)),

  /** Refund requests waiting for a decision (the Orders badge counts them). */
  requests: staffProcedure('viewer').query(({ ctx }) => listRefundRequests(ctx.db)),

  decideRequest: staffProcedure('admin')
    .input(refundDecisionInput)
    .mutation(({ ctx, input }) =>
      decideRefundRequest(ctx.db, input.requestId, input, actorOf(ctx.user), ctx.refundGateway, ctx.config),
    ),

  /** Which lines a partial Stripe-dashboard refund gave back (they lose access); none keeps access. */
  assignRefundLines: staffProcedure('admin')
    .input(refundLinesInput)
    .mutation(({ ctx, input }) => assignRefundLines(ctx.db, input, actorOf(ctx.user), ctx.refundGateway, ctx.config)),

  /** End the plan an order started, at the period's end or now; no refund (decision 0096). */
  endMembership: staffProcedure('admin')
    .input(staffEndMembershipInput)
    .mutation(({ ctx, input }) =>
      // The member's mail links to the platform's site, as staff's mails do (not the host staff came on).
      endMembershipByStaff({ ...ctx, publicUrl: ctx.config.publicUrl }, input, actorOf(ctx.user)),
    ),

  cancel: staffProcedure('admin')
    .input(orderInput)
    .mutation(async ({ ctx, input }) => {
      await cancelOrderByStaff(ctx.db, ctx.stripe, input.id, actorOf(ctx.user))
      return { id: input.id }
    }),
})
