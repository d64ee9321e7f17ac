import { plansOutput } from '../../src-shared/schemas/plans.ts'
import { listComparisonFeatures, listPlans } from '../subscriptions/plans.ts'
import { publicProcedure, router } from '../trpc/init.ts'

export const plansRouter = router({
  /** The plans and the comparison table, read together for the pricing page. */
  list: publicProcedure.output(plansOutput).query(async ({ ctx }) => {
    const [plans, comparison] = await Promise.all([listPlans(ctx.db), listComparisonFeatures(ctx.db)])
    return { plans, comparison }
  }),
})
