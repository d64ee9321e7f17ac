// /admin/customers: one customer's account, plan, orders, courses, service orders and messages, for every staff role
// (each of those is already theirs to read on its own page), each look-up audited. The address goes as a POST
// (decision 0155).
import { customerLookupInput } from '../../../src-shared/schemas/admin.ts'
import { customerOverview } from '../../flows/customer-overview.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminCustomersRouter = router({
  find: staffProcedure('viewer')
    .input(customerLookupInput)
    .query(({ ctx, input }) => customerOverview(ctx.db, actorOf(ctx.user), input.customer)),
})
