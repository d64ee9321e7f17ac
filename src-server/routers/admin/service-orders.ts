// The service-order work queue and an order's page for staff. Viewers read; editors work orders (messages, notes,
// start, deliver, reopen the brief); admins also assign and cancel. Cancelling refunds the order's line through
// the refunds flow (a PayPal or bank payment needs the refund's reference).
import { z } from 'zod'
import { searchedAddress } from '../../../src-shared/schemas/admin.ts'
import { MESSAGE_MAX_LENGTH, SERVICE_ORDER_STATUSES } from '../../../src-shared/service-orders.ts'
import { reopenBrief } from '../../service-orders/brief.ts'
import { postMessage } from '../../service-orders/messages.ts'
import { deliverReport } from '../../service-orders/recurring.ts'
import { workQueue } from '../../service-orders/repository.ts'
import { assign, cancelServiceOrder, deliver, startWork } from '../../service-orders/staff.ts'
import { markOrderRead, viewOrder } from '../../service-orders/view.ts'
import { router, staffProcedure } from '../../trpc/init.ts'

const byId = z.object({ id: z.uuid() })
const fileIds = z.array(z.uuid()).max(10).default([])

export const adminServiceOrdersRouter = router({
  list: staffProcedure('viewer')
    .input(
      z.object({
        status: z.enum(SERVICE_ORDER_STATUSES).optional(),
        serviceId: z.string().max(100).optional(),
        assignee: z.union([z.uuid(), z.literal('none')]).optional(),
        overdue: z.boolean().optional(),
        /** The orders of the customer with this address. Its name sends the query as a POST (src-client/lib/trpc.ts). */
        buyer: searchedAddress.optional(),
        page: z.int().min(1).max(10_000).default(1),
      }),
    )
    .query(({ ctx, input }) => workQueue(ctx.db, input, ctx.user.id)),

  /** One order; reading it marks nothing read (markRead does, once the page shows it). */
  detail: staffProcedure('viewer')
    .input(byId)
    .query(({ ctx, input }) => viewOrder(ctx.db, ctx.user, input.id, 'staff')),

  /** Marks the buyer's messages read for this staff member: the order's page asks it once the thread is on screen. */
  markRead: staffProcedure('viewer')
    .input(byId)
    .mutation(({ ctx, input }) => markOrderRead(ctx.db, ctx.user, input.id, 'staff')),

  sendMessage: staffProcedure('editor')
    .input(
      byId.extend({
        body: z.string().trim().min(1, 'Write a message first').max(MESSAGE_MAX_LENGTH),
        fileIds,
        internal: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) => postMessage(ctx.db, ctx.user, input.id, 'staff', input, ctx.config)),

  start: staffProcedure('editor')
    .input(byId)
    .mutation(async ({ ctx, input }) => {
      await startWork(ctx.db, ctx.user, input.id, ctx.config)
      return { id: input.id }
    }),

  reopenBrief: staffProcedure('editor')
    .input(byId)
    .mutation(async ({ ctx, input }) => {
      await reopenBrief(ctx.db, ctx.user, input.id, ctx.config)
      return { id: input.id }
    }),

  deliver: staffProcedure('editor')
    .input(byId.extend({ note: z.string().trim().max(MESSAGE_MAX_LENGTH), fileIds }))
    .mutation(async ({ ctx, input }) => {
      await deliver(ctx.db, ctx.user, input.id, input, ctx.config)
      return { id: input.id }
    }),

  assign: staffProcedure('admin')
    .input(byId.extend({ assigneeId: z.uuid().nullable() }))
    .mutation(async ({ ctx, input }) => {
      await assign(ctx.db, ctx.user, input.id, input.assigneeId)
      return { id: input.id }
    }),

  cancel: staffProcedure('admin')
    .input(
      byId.extend({
        refund: z.boolean().default(true),
        reference: z.string().trim().max(200).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const result = await cancelServiceOrder(ctx.db, ctx.user, input.id, ctx.config, {
        refund: input.refund,
        reference: input.reference || undefined,
        ...ctx.cancelMoney,
      })
      return { id: input.id, ...result }
    }),

  /** A recurring order: the report of its earliest paid month not reported yet. */
  deliverReport: staffProcedure('editor')
    .input(byId.extend({ note: z.string().trim().max(MESSAGE_MAX_LENGTH), fileIds }))
    .mutation(async ({ ctx, input }) => {
      const result = await deliverReport(ctx.db, ctx.user, input.id, input, ctx.config)
      return { id: input.id, ...result }
    }),
})
