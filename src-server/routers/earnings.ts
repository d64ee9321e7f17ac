// A creator's earnings and payouts (the studio's Earnings and Payouts pages). The reads take an optional schoolId: a
// school's finance member (or its owner) reads the owner's ledger after flows/school-team.ts actingFor has asked
// creators/school-access.ts (decision 0057); without it the caller reads their own ledger (creators only). Setting
// up payouts stays the owner's own.
import { EARNINGS_PAGE_SIZE, earningsEntriesInput } from '../../src-shared/schemas/earnings.ts'
import { actingSchoolInput } from '../../src-shared/schemas/schools.ts'
import { earningsEntries, earningsMonthly, earningsOverview } from '../flows/creator-earnings-view.ts'
import { payoutDashboardLink, payoutsNeedSecondFactor, setUpPayouts } from '../flows/creator-payouts.ts'
import { actingFor } from '../flows/school-team.ts'
import { authedProcedure, creatorProcedure, router } from '../trpc/init.ts'

const ledgerOf = (ctx: { db: import('../kernel/db.ts').DB; user: { id: string } }, schoolId: string | undefined) =>
  actingFor(ctx.db, ctx.user.id, schoolId, 'earnings.view').then((acting) => acting.ownerId)

export const earningsRouter = router({
  overview: authedProcedure
    .input(actingSchoolInput.optional())
    .query(async ({ ctx, input }) => earningsOverview(ctx.db, await ledgerOf(ctx, input?.schoolId))),

  entries: authedProcedure
    .input(earningsEntriesInput.extend(actingSchoolInput.shape))
    .query(async ({ ctx, input }) =>
      earningsEntries(ctx.db, await ledgerOf(ctx, input.schoolId), input.page, EARNINGS_PAGE_SIZE),
    ),

  monthly: authedProcedure
    .input(actingSchoolInput.optional())
    .query(async ({ ctx, input }) => earningsMonthly(ctx.db, await ledgerOf(ctx, input?.schoolId))),

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
