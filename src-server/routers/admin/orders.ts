// The Orders page: everyone on the team can read; admins mark PayPal and bank-transfer orders paid (fulfilled
// through the checkout's exactly-once path) or cancel unpaid ones.
import { TRPCError } from '@trpc/server'
import { z } from 'zod'
import { ADMIN_PAGE_SIZE, ORDER_STATUSES } from '../../../src-shared/admin.ts'
import { writeAudit } from '../../admin/audit.ts'
import type { DB } from '../../db.ts'
import { cancelOrder, listOrdersForStaff, markOrderPaid } from '../../orders/service.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

/** The order, locked until the end of the caller's transaction. */
async function findOrder(db: DB, id: string) {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'method', 'status'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  if (!order) throw new TRPCError({ code: 'NOT_FOUND', message: 'Order not found' })
  return order
}

export const adminOrdersRouter = router({
  list: staffProcedure('viewer')
    .input(
      z.object({ status: z.enum(ORDER_STATUSES).optional(), page: z.number().int().min(1).max(10_000).default(1) }),
    )
    .query(async ({ ctx, input }) => {
      // One extra row tells whether a next page exists without counting the whole table.
      const rows = await listOrdersForStaff(ctx.db, {
        status: input.status,
        limit: ADMIN_PAGE_SIZE + 1,
        offset: (input.page - 1) * ADMIN_PAGE_SIZE,
      })
      return { items: rows.slice(0, ADMIN_PAGE_SIZE), page: input.page, hasNext: rows.length > ADMIN_PAGE_SIZE }
    }),

  markPaid: staffProcedure('admin')
    .input(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) =>
      // The change and its audit record commit together.
      ctx.db.transaction().execute(async (trx) => {
        const before = await findOrder(trx, input.id)
        if (before.method === 'card') {
          throw new TRPCError({ code: 'BAD_REQUEST', message: 'Card payments are confirmed by Stripe, not by staff' })
        }
        const result = await markOrderPaid(trx, input.id, { id: ctx.user.id })
        if (result === 'fulfilled') {
          await writeAudit(trx, actorOf(ctx.user), {
            action: 'order.paid',
            entityType: 'order',
            entityId: input.id,
            before: { reference: before.reference, status: before.status },
            after: { reference: before.reference, status: 'paid' },
          })
        }
        return { id: input.id, result }
      }),
    ),

  cancel: staffProcedure('admin')
    .input(z.object({ id: z.uuid() }))
    .mutation(({ ctx, input }) =>
      ctx.db.transaction().execute(async (trx) => {
        const before = await findOrder(trx, input.id)
        await cancelOrder(trx, input.id, { id: ctx.user.id })
        if (before.status !== 'cancelled') {
          await writeAudit(trx, actorOf(ctx.user), {
            action: 'order.cancel',
            entityType: 'order',
            entityId: input.id,
            before: { reference: before.reference, status: before.status },
            after: { reference: before.reference, status: 'cancelled' },
          })
        }
        return { id: input.id }
      }),
    ),
})
