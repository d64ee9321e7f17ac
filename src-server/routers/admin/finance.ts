// Staff finance over creators' money: admins and up read it; only the owner (super_admin) pauses payouts (audited).
import { setPayoutsPausedInput } from '../../../src-shared/schemas/earnings.ts'
import { financeOverview, setPayoutsPausedBy } from '../../flows/creator-finance.ts'
import { router, staffProcedure } from '../../trpc/init.ts'
import { actorOf } from './actor.ts'

export const adminFinanceRouter = router({
  overview: staffProcedure('admin').query(({ ctx }) => financeOverview(ctx.db, ctx.stripe)),

  setPaused: staffProcedure('super_admin')
    .input(setPayoutsPausedInput)
    .mutation(({ ctx, input }) => setPayoutsPausedBy(ctx.db, actorOf(ctx.user), input.paused)),
})
