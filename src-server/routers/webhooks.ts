// The studio's outgoing webhooks (decision 0061). Every procedure is the school owner's, on an Enterprise plan:
// flows/webhooks.ts asks creators/school-access.ts and the plan; endpoints and deliveries of another school are
// not found. The secret is sent only by revealSecret (and once on creation or rotation), never in a list.
import { z } from 'zod'
import {
  createWebhookEndpointInput,
  updateWebhookEndpointInput,
  webhookDeliveryRefInput,
  webhookEndpointRefInput,
} from '../../src-shared/schemas/webhooks.ts'
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
import { authedProcedure, router } from '../trpc/init.ts'

const settingsOf = (config: AppConfig) => ({
  allowPrivate: config.webhooksAllowPrivate ?? process.env.NODE_ENV !== 'production',
})

export const webhooksRouter = router({
  panel: authedProcedure
    .input(z.object({ schoolId: z.uuid().optional() }).optional())
    .query(({ ctx, input }) => webhooksPanel(ctx.db, ctx.user.id, settingsOf(ctx.config), input?.schoolId)),

  create: authedProcedure
    .input(createWebhookEndpointInput)
    .mutation(({ ctx, input }) => addWebhookEndpoint(ctx.db, ctx.user.id, input, settingsOf(ctx.config))),

  update: authedProcedure
    .input(updateWebhookEndpointInput)
    .mutation(({ ctx, input }) => editWebhookEndpoint(ctx.db, ctx.user.id, input)),

  remove: authedProcedure
    .input(webhookEndpointRefInput)
    .mutation(({ ctx, input }) => removeWebhookEndpoint(ctx.db, ctx.user.id, input.endpointId)),

  revealSecret: authedProcedure
    .input(webhookEndpointRefInput)
    .mutation(({ ctx, input }) => revealWebhookSecret(ctx.db, ctx.user.id, input.endpointId)),

  rotateSecret: authedProcedure
    .input(webhookEndpointRefInput)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.user.id, input.endpointId)),

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
