// /account → Membership: the member's plan in words, and cancel, resume, change plan and the billing portal.
import { cancelMembershipInput, changePlanInput, planChoiceInput } from '../../src-shared/schemas/membership.ts'
import type { AppConfig } from '../config.ts'
import type { DB } from '../db.ts'
import { membershipOf } from '../membership/view.ts'
import { paymentsOf } from '../payments/config.ts'
import {
  billingPortalUrl,
  cancelMembership,
  changePlan,
  previewPlanChange,
  resumeMembership,
} from '../payments/membership-actions.ts'
import { authedProcedure, router } from '../trpc/init.ts'

const depsOf = (ctx: { db: DB; config: AppConfig }) => ({
  db: ctx.db,
  stripe: paymentsOf(ctx.config).stripe,
})

export const membershipRouter = router({
  get: authedProcedure.query(({ ctx }) => membershipOf(ctx.db, ctx.user.id)),

  cancel: authedProcedure
    .input(cancelMembershipInput)
    .mutation(({ ctx, input }) => cancelMembership(depsOf(ctx), ctx.user.id, input.reason || null)),

  resume: authedProcedure.mutation(({ ctx }) => resumeMembership(depsOf(ctx), ctx.user.id)),

  previewChange: authedProcedure
    .input(planChoiceInput)
    .mutation(({ ctx, input }) => previewPlanChange(depsOf(ctx), ctx.user.id, input.planId, input.billingCycle)),

  changePlan: authedProcedure
    .input(changePlanInput)
    .mutation(({ ctx, input }) => changePlan(depsOf(ctx), ctx.user.id, input)),

  /** Stripe's customer portal (card, past invoices), returning to the membership page. */
  billingPortal: authedProcedure.mutation(async ({ ctx }) => ({
    url: await billingPortalUrl(depsOf(ctx), ctx.user.id, `${ctx.config.publicUrl}/account/membership`),
  })),
})
