// POST /api/stripe/webhook: the signature is verified on the raw body, so this route (alone) reads the body
// as a Buffer. The CSRF hook exempts the path; the signature is the proof of origin.
import type { FastifyInstance } from 'fastify'
import Stripe from 'stripe'
import { isDatabaseUnavailable } from '../db-unavailable.ts'
import type { HttpDeps } from '../http/deps.ts'
import { sendServiceUnavailable } from '../http/errors.ts'
import { defaultPayments } from './config.ts'
import { processStripeEvent } from './events.ts'

const WEBHOOK_BODY_LIMIT = 512 * 1024

export async function registerStripeWebhookRoutes(app: FastifyInstance, deps: HttpDeps) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    )

    scope.post('/api/stripe/webhook', async (request, reply) => {
      const secret = (deps.config.payments ?? defaultPayments).stripeWebhookSecret
      if (!secret) return reply.code(503).send({ error: 'Stripe webhooks are not configured' })
      const signature = request.headers['stripe-signature']
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        return reply.code(400).send({ error: 'Missing Stripe signature' })
      }
      let event: Stripe.Event
      try {
        event = await Stripe.webhooks.constructEventAsync(request.body, signature, secret)
      } catch {
        return reply.code(400).send({ error: 'Invalid Stripe signature' })
      }
      try {
        const outcome = await processStripeEvent(deps.db, event)
        return { received: true, outcome }
      } catch (error) {
        // Nothing was committed; Stripe retries later (an outage answers 503 like every route).
        if (isDatabaseUnavailable(error)) return sendServiceUnavailable(request, reply, error)
        request.log.error({ err: error, eventId: event.id, type: event.type }, 'stripe webhook failed')
        return reply.code(500).send({ error: 'Webhook processing failed' })
      }
    })
  })
}
