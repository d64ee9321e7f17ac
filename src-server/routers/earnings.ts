// A creator's earnings and payouts (the studio's Earnings and Payouts pages): creators only, and every query reads
// the caller's own ledger (ctx.user.id), never one named in the input.
import { EARNINGS_PAGE_SIZE, earningsEntriesInput } from '../../src-shared/schemas/earnings.ts'
import { earningsEntries, earningsMonthly, earningsOverview } from '../flows/creator-earnings-view.ts'
import { payoutDashboardLink, payoutsNeedSecondFactor, setUpPayouts } from '../flows/creator-payouts.ts'
import { creatorProcedure, router } from '../trpc/init.ts'

export const earningsRouter = router({
  overview: creatorProcedure.query(({ ctx }) => earningsOverview(ctx.db, ctx.user.id)),

  entries: creatorProcedure
    .input(earningsEntriesInput)
    .query(({ ctx, input }) => earningsEntries(ctx.db, ctx.user.id, input.page, EARNINGS_PAGE_SIZE)),

  monthly: creatorProcedure.query(({ ctx }) => earningsMonthly(ctx.db, ctx.user.id)),

  /** Whether the caller must turn on two-factor sign-in before setting up payouts (STAFF_2FA=required). */
  payoutGate: creatorProcedure.query(async ({ ctx }) => ({
    needsSecondFactor: await payoutsNeedSecondFactor(ctx.db, ctx.user.id, ctx.config.staffTwoFactor === 'required'),
  })),

  /** Stripe's hosted onboarding for the caller's Express account (made on the first call). */
  setUpPayouts: creatorProcedure.mutation(async ({ ctx }) => {
    const base = `${ctx.config.publicUrl}/studio/payouts`
    const url = await setUpPayouts(
      ctx.db,
      ctx.stripe,
      { id: ctx.user.id, email: ctx.user.email },
      { returnUrl: `${base}?return=1`, refreshUrl: `${base}?refresh=1` },
      { requireSecondFactor: ctx.config.staffTwoFactor === 'required' },
    )
    return { url }
  }),

  /** A one-time link to the caller's Stripe Express dashboard. */
  dashboardLink: creatorProcedure.mutation(async ({ ctx }) => ({
    url: await payoutDashboardLink(ctx.db, ctx.stripe, ctx.user.id),
  })),
})
