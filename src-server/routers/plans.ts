import { plansOutput } from '../../src-shared/schemas/plans.ts'
import { listComparisonFeatures, listPlans } from '../subscriptions/plans.ts'
import { publicProcedure, router } from '../trpc/init.ts'

/**
 * The seeded feature "Secure checkout with card and PayPal" names the ways to pay: a store without PayPal (no
 * PAYPAL_ME_URL) or without cards (no Stripe) does not promise them (a feature named on a page is a promise).
 */
function offeredCheckout(feature: string, methods: { card: boolean; paypal: boolean }): string {
  if (feature !== 'Secure checkout with card and PayPal' || (methods.card && methods.paypal)) return feature
  if (methods.card || methods.paypal) return `Secure checkout with ${methods.card ? 'card' : 'PayPal'}`
  return 'Secure checkout by bank transfer'
}

export const plansRouter = router({
  /** The plans and the comparison table, read together for the pricing page. */
  list: publicProcedure.output(plansOutput).query(async ({ ctx }) => {
    const [plans, comparison] = await Promise.all([listPlans(ctx.db), listComparisonFeatures(ctx.db)])
    const paymentMethods = { card: Boolean(ctx.payments.stripe), paypal: Boolean(ctx.payments.paypalMeUrl) }
    return {
      plans: plans.map((plan) => ({ ...plan, features: plan.features.map((f) => offeredCheckout(f, paymentMethods)) })),
      paymentMethods,
      comparison,
    }
  }),
})
