// /account → Membership: the member's plan in words, and cancel, resume, change plan and the billing portal.
import { cancelMembershipInput, changePlanInput, planChoiceInput } from '../../src-shared/schemas/membership.ts'
import {
  billingPortalUrl,
  cancelMembership,
  changePlan,
  previewPlanChange,
  resumeMembership,
} from '../flows/membership.ts'
import { membershipPage } from '../flows/membership-view.ts'
import { authedProcedure, router } from '../trpc/init.ts'

export const membershipRouter = router({
  get: authedProcedure.query(({ ctx }) => membershipPage(ctx.db, ctx.user.id)),

  cancel: authedProcedure
    .input(cancelMembershipInput)
    .mutation(({ ctx, input }) => cancelMembership(ctx, ctx.user.id, input.reason || null)),

  resume: authedProcedure.mutation(({ ctx }) => resumeMembership(ctx, ctx.user.id)),

  previewChange: authedProcedure
    .input(planChoiceInput)
    .mutation(({ ctx, input }) => previewPlanChange(ctx, ctx.user.id, input.planId, input.billingCycle)),

  changePlan: authedProcedure.input(changePlanInput).mutation(({ ctx, input }) => changePlan(ctx, ctx.user.id, input)),

  /** Stripe's customer portal (card, past invoices), returning to the membership page. */
  billingPortal: authedProcedure.mutation(async ({ ctx }) => ({
    url: await billingPortalUrl(ctx, ctx.user.id, `${ctx.publicUrl}/account/membership`),
  })),
})
