// POST /api/stripe/webhook: the signature is verified on the raw body, so this route (alone) reads the body
// as a Buffer. The CSRF hook exempts the path; the signature is the proof of origin. Every signed event is
// answered 2xx once recorded (applied, or ignored when it is not ours); only a failure of our own (the database)
// answers 500, so that Stripe retries it.
import type { FastifyInstance } from 'fastify'
import { processStripeEvent } from '../flows/apply-stripe-event.ts'
import { settleProcessorFees } from '../flows/processor-fees.ts'
import type { HttpDeps } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { sendIfUnavailable } from '../kernel/error-mapping.ts'
import { isKnownPayment } from '../orders/subscription-refunds.ts'
import { paymentsOf } from '../payments/config.ts'
import type { FollowUp } from '../payments/event-outcome.ts'
import { withInvoicePayment, withRefundedInvoice } from '../payments/invoice-payment.ts'
import { withSessionPayment } from '../payments/session-payment.ts'
import { type StripeApi, verifyStripeWebhook } from '../payments/stripe.ts'
import { readStripeEvent } from '../payments/stripe-event.ts'
import { withTaxBreakdown } from '../payments/tax-breakdown.ts'

const WEBHOOK_BODY_LIMIT = 512 * 1024

export async function registerStripeWebhookRoutes(app: FastifyInstance, deps: HttpDeps) {
  const { stripe, stripeWebhookSecret: secret, stripeConnectWebhookSecret: connectSecret } = paymentsOf(deps.config)
  // Signed by the main endpoint's secret, or by the Connect endpoint's when it has its own (same route).
  const verified = async (body: Buffer, signature: string) =>
    (await verifyStripeWebhook(body, signature, secret as string)) ||
    (Boolean(connectSecret) && (await verifyStripeWebhook(body, signature, connectSecret as string)))
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    )

    scope.post('/api/stripe/webhook', async (request, reply) => {
      if (!secret) return reply.code(503).send({ error: 'Stripe webhooks are not configured' })
      const signature = request.headers['stripe-signature']
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        return reply.code(400).send({ error: 'Missing Stripe signature' })
      }
      if (!(await verified(request.body, signature))) {
        return reply.code(400).send({ error: 'Invalid Stripe signature' })
      }
      // The one parse: from here on the event is a typed value (or an ignored one, recorded as such).
      const received = readStripeEvent(request.body)
      try {
        const event = await withRefundedInvoice(
          await withInvoicePayment(
            await withSessionPayment(await withTaxBreakdown(received, stripe, request.log), stripe, request.log),
            stripe,
            request.log,
          ),
          stripe,
          request.log,
          (payment) => isKnownPayment(deps.db, payment),
        )
        const result = await processStripeEvent(deps.db, event, deps.config.publicUrl)
        if (result.outcome === 'ignored') {
          const level = result.reason === 'not_ours' || result.reason === 'malformed' ? 'warn' : 'info'
          request.log[level](result, 'stripe webhook event ignored')
        }
        if (result.followUp) await followUp(result.followUp, stripe, request.log)
        if (result.followUp?.processorFeeOf && stripe) {
          await takeProcessorFee(deps.db, stripe, result.followUp.processorFeeOf, request.log)
        }
        return { received: true, outcome: result.outcome }
      } catch (error) {
        // Nothing was committed; Stripe retries later (an outage answers 503 like every route).
        const unavailable = sendIfUnavailable(request, reply, error)
        if (unavailable) return unavailable
        request.log.error({ err: error }, 'stripe webhook failed')
        return reply.code(500).send({ error: 'Webhook processing failed' })
      }
    })
  })
}

/** After the event committed: what it asked of Stripe. A failure is logged; a later event about it asks again. */
async function followUp(
  action: FollowUp,
  stripe: StripeApi | null,
  log: { warn: (details: object, message: string) => void },
) {
  if (!stripe) return
  for (const subscription of action.cancelSubscriptions) {
    await stripe.cancelSubscription(subscription).catch((error: unknown) => {
      log.warn({ err: error, subscription }, 'could not cancel a subscription at Stripe')
    })
  }
}

/** After a paid session committed: Stripe's fee on it, taken from the creators' shares; a failure waits for the sweep. */
async function takeProcessorFee(
  db: DB,
  stripe: StripeApi,
  orderId: string,
  log: { warn: (details: object, message: string) => void },
) {
  await settleProcessorFees(db, stripe, orderId).catch((error: unknown) => {
    log.warn({ err: error, orderId }, 'could not take the processor fee of a paid order (the sweep retries)')
  })
}
