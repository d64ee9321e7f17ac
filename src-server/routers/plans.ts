import { plansOutput } from '../../src-shared/schemas/plans.ts'
import { listComparisonFeatures, listPlans } from '../subscriptions/plans.ts'
import { publicProcedure, router } from '../trpc/init.ts'

export const plansRouter = router({
  /** The plans and the comparison table, read together for the pricing page. */
  list: publicProcedure.output(plansOutput).query(async ({ ctx }) => {
    const [plans, comparison] = await Promise.all([listPlans(ctx.db), listComparisonFeatures(ctx.db)])
    return {
      plans: plans.map((plan) => ({
        id: plan.id,
        name: plan.name,
        description: plan.description,
        monthlyPriceMinor: plan.monthly_price_minor,
        annualPriceMinor: plan.annual_price_minor,
        currency: plan.currency,
        features: plan.features,
        isPopular: plan.is_popular,
        badge: plan.badge,
      })),
      comparison,
    }
  }),
})
