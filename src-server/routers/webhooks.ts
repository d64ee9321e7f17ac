// The studio's outgoing webhooks (decision 0061). Every procedure is the school owner's, on an Enterprise plan:
// flows/webhooks.ts asks creators/school-access.ts and the plan; endpoints and deliveries of another school are
// not found. The secret is sent only by revealSecret (and once on creation or rotation), never in a list. Adding an
// endpoint, revealing and rotating its secret need a fresh proof and mail the owner (decision 0141, as API keys do:
// decision 0131): an endpoint and its secret outlive the session that got them.
import { z } from 'zod'
import {
  createWebhookEndpointInput,
  updateWebhookEndpointInput,
  webhookDeliveryRefInput,
  webhookEndpointRefInput,
  webhookSecretInput,
} from '../../src-shared/schemas/webhooks.ts'
import { type ActionProof, confirmAction, confirmationMethod } from '../auth/confirm-action.ts'
import { twoFactorSettings } from '../auth/two-factor.ts'
import {
  addWebhookEndpoint,
  editWebhookEndpoint,
  removeWebhookEndpoint,
  replayWebhookDelivery,
  revealWebhookSecret,
  rotateWebhookSecret,
  sendWebhookTest,
  webhookDeliveries,
  webhooksPanel,
} from '../flows/webhooks.ts'
import type { AppConfig } from '../kernel/config.ts'
import { type Context, passwordsTypedHere } from '../trpc/context.ts'
import { authedProcedure, router } from '../trpc/init.ts'
import { paceSecurityTries } from '../trpc/security-pace.ts'

const settingsOf = (config: AppConfig) => ({
  allowPrivate: config.webhooksAllowPrivate ?? process.env.NODE_ENV !== 'production',
})

/** The fresh proof, checked (and paced as the log-in) before the role, the plan or the endpoint. */
async function confirmed(ctx: Context & { user: { id: string } }, proof: ActionProof) {
  await paceSecurityTries(ctx, ctx.user.id)
  await confirmAction(ctx.db, ctx.user.id, proof, twoFactorSettings(ctx.config), passwordsTypedHere(ctx))
}

export const webhooksRouter = router({
  /** The endpoints, and how adding one or showing a secret is confirmed (the password or an app code, or a mailed code). */
  panel: authedProcedure
    .input(z.object({ schoolId: z.uuid().optional() }).optional())
    .query(async ({ ctx, input }) => ({
      ...(await webhooksPanel(ctx.db, ctx.user.id, settingsOf(ctx.config), input?.schoolId)),
      confirm: await confirmationMethod(ctx.db, ctx.user.id, passwordsTypedHere(ctx)),
    })),

  create: authedProcedure.input(createWebhookEndpointInput).mutation(async ({ ctx, input }) => {
    const { password, code, ...fields } = input
    await confirmed(ctx, { password, code })
    return addWebhookEndpoint(ctx.db, ctx.user.id, fields, settingsOf(ctx.config), ctx.config.publicUrl)
  }),

  update: authedProcedure
    .input(updateWebhookEndpointInput)
    .mutation(({ ctx, input }) => editWebhookEndpoint(ctx.db, ctx.user.id, input)),

  remove: authedProcedure
    .input(webhookEndpointRefInput)
    .mutation(({ ctx, input }) => removeWebhookEndpoint(ctx.db, ctx.user.id, input.endpointId)),

  revealSecret: authedProcedure.input(webhookSecretInput).mutation(async ({ ctx, input }) => {
    await confirmed(ctx, { password: input.password, code: input.code })
    return revealWebhookSecret(ctx.db, ctx.user.id, input.endpointId, ctx.config.publicUrl)
  }),

  rotateSecret: authedProcedure.input(webhookSecretInput).mutation(async ({ ctx, input }) => {
    await confirmed(ctx, { password: input.password, code: input.code })
    return rotateWebhookSecret(ctx.db, ctx.user.id, input.endpointId, ctx.config.publicUrl)
  }),

  deliveries: authedProcedure
    .input(webhookEndpointRefInput)
    .query(({ ctx, input }) => webhookDeliveries(ctx.db, ctx.user.id, input.endpointId)),

  replay: authedProcedure
    .input(webhookDeliveryRefInput)
    .mutation(({ ctx, input }) => replayWebhookDelivery(ctx.db, ctx.limiter, ctx.user.id, input.deliveryId)),

  sendTest: authedProcedure
    .input(webhookEndpointRefInput)
    .mutation(({ ctx, input }) => sendWebhookTest(ctx.db, ctx.limiter, ctx.user.id, input.endpointId)),
})
