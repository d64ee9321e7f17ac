// The buyer's service orders (/account → My services): their list, one order's page, the brief, the thread and
// the answer to a delivery. Every procedure acts only on the caller's own orders (others read as not found).
import { z } from 'zod'
import { briefInput } from '../../src-shared/schemas/service-brief.ts'
import { MESSAGE_MAX_LENGTH } from '../../src-shared/service-orders.ts'
import { saveDraft, submitBrief } from '../service-orders/brief.ts'
import { acceptDelivery, requestRevision } from '../service-orders/delivery.ts'
import { removeBriefFile } from '../service-orders/files.ts'
import { postMessage, unreadForBuyer } from '../service-orders/messages.ts'
import { cancelRecurring } from '../service-orders/recurring.ts'
import { listForBuyer } from '../service-orders/repository.ts'
import { markOrderRead, viewOrder } from '../service-orders/view.ts'
import { authedProcedure, router } from '../trpc/init.ts'

const byId = z.object({ id: z.uuid() })
const fileIds = z.array(z.uuid()).max(10).default([])

export const serviceOrdersRouter = router({
  mine: authedProcedure.query(({ ctx }) => listForBuyer(ctx.db, ctx.user.id)),

  unread: authedProcedure.query(({ ctx }) => unreadForBuyer(ctx.db, ctx.user.id)),

  /** One order; reading it marks nothing read (markRead does, once the page shows it). */
  detail: authedProcedure.input(byId).query(({ ctx, input }) => viewOrder(ctx.db, ctx.user, input.id, 'buyer')),

  /** Marks the team's messages read for the buyer: the order's page asks it once the thread is on screen. */
  markRead: authedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => markOrderRead(ctx.db, ctx.user, input.id, 'buyer')),

  saveDraft: authedProcedure.input(byId.extend({ brief: briefInput })).mutation(async ({ ctx, input }) => {
    await saveDraft(ctx.db, ctx.user, input.id, input.brief)
    return { id: input.id }
  }),

  submitBrief: authedProcedure.input(byId.extend({ brief: briefInput })).mutation(async ({ ctx, input }) => {
    await submitBrief(ctx.db, ctx.user, input.id, input.brief, ctx.config)
    return { id: input.id }
  }),

  removeBriefFile: authedProcedure.input(byId.extend({ fileId: z.uuid() })).mutation(async ({ ctx, input }) => {
    await removeBriefFile(ctx.db, ctx.storage, ctx.user, input.id, input.fileId)
    return { id: input.id }
  }),

  sendMessage: authedProcedure
    .input(byId.extend({ body: z.string().trim().min(1, 'Write a message first').max(MESSAGE_MAX_LENGTH), fileIds }))
    .mutation(({ ctx, input }) =>
      postMessage(ctx.db, ctx.user, input.id, 'buyer', { body: input.body, fileIds: input.fileIds }, ctx.config),
    ),

  acceptDelivery: authedProcedure.input(byId).mutation(async ({ ctx, input }) => {
    await acceptDelivery(ctx.db, ctx.user, input.id, ctx.config)
    return { id: input.id }
  }),

  /** A monthly service: stop its subscription at the end of the paid month (the order closes then). */
  cancelSubscription: authedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => cancelRecurring(ctx.db, ctx.user, input.id, ctx.stopAtPeriodEnd)),

  requestRevision: authedProcedure
    .input(byId.extend({ details: z.string().trim().min(1, 'Tell us what to change').max(MESSAGE_MAX_LENGTH) }))
    .mutation(async ({ ctx, input }) => {
      await requestRevision(ctx.db, ctx.user, input.id, input.details, ctx.config)
      return { id: input.id }
    }),
})
