// The dashboard's numbers, counted in the database: totals, and orders and revenue of the last 30 days.
import { dashboardCounts } from '../../reports/dashboard.ts'
import { salesLastDays } from '../../reports/sales.ts'
import { router, staffProcedure } from '../../trpc/init.ts'

export const adminDashboardRouter = router({
  summary: staffProcedure('viewer').query(async ({ ctx }) => {
    const [counts, sales] = await Promise.all([dashboardCounts(ctx.db), salesLastDays(ctx.db)])
    return { counts, sales }
  }),
})
