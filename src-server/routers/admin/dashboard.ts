// The dashboard's numbers, counted in the database.
import { dashboardCounts } from '../../admin/dashboard.ts'
import { router, staffProcedure } from '../../trpc/init.ts'

export const adminDashboardRouter = router({
  summary: staffProcedure('viewer').query(async ({ ctx }) => ({ counts: await dashboardCounts(ctx.db) })),
})
