// The only module that imports the Stripe SDK. The app needs a few things from Stripe: create, read and expire a
// Checkout Session, refund a payment, and verify a signed webhook. They sit behind StripeApi, so a test (or another gateway) can supply
// its own; everything Stripe answers is parsed by our zod schemas before the domain sees it.
import Stripe from 'stripe'
import { type CheckoutSession, checkoutSessionSchema, refundSchema, type StripeRefund } from './stripe-schemas.ts'

/** What checkout sends to Stripe (the SDK's own parameter type, so a wrong field fails type-checking). */
export type CheckoutSessionParams = Stripe.Checkout.SessionCreateParams

export interface StripeApi {
  /** Creates the hosted Checkout page; the key makes a retry return the same session. */
  createCheckoutSession(params: CheckoutSessionParams, idempotencyKey: string): Promise<CheckoutSession>
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSession>
  /** Closes an open session so it can no longer be paid; a session no longer open is read back as it is. */
  expireCheckoutSession(sessionId: string): Promise<CheckoutSession>
  /** Gives back part or all of a payment; the key makes a retry return the same refund. */
  createRefund(
    params: { paymentIntentId: string; amountMinor: number; metadata: Record<string, string> },
    idempotencyKey: string,
  ): Promise<StripeRefund>
}

export interface StripeSettings {
  secretKey: string
  /** e.g. http://127.0.0.1:12111: every call goes to a local fake (scripts/fake-stripe.ts) instead of Stripe. */
  apiUrl?: string
}

const STRIPE_TIMEOUT_MS = 10_000

export function createStripeApi(settings: StripeSettings): StripeApi {
  const base = settings.apiUrl ? new URL(settings.apiUrl) : null
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 0,
    timeout: STRIPE_TIMEOUT_MS,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  })
  return {
    async createCheckoutSession(params, idempotencyKey) {
      return checkoutSessionSchema.parse(await stripe.checkout.sessions.create(params, { idempotencyKey }))
    },
    async retrieveCheckoutSession(sessionId) {
      return checkoutSessionSchema.parse(await stripe.checkout.sessions.retrieve(sessionId))
    },
    async expireCheckoutSession(sessionId) {
      try {
        return checkoutSessionSchema.parse(await stripe.checkout.sessions.expire(sessionId))
      } catch (error) {
        // Stripe refuses to expire a session that is complete or already expired: read what it is instead.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error
        return checkoutSessionSchema.parse(await stripe.checkout.sessions.retrieve(sessionId))
      }
    },
    async createRefund({ paymentIntentId, amountMinor, metadata }, idempotencyKey) {
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntentId, amount: amountMinor, metadata },
        { idempotencyKey },
      )
      return refundSchema.parse(refund)
    },
  }
}

export type VerifiedWebhook =
  | { verified: false }
  /** Signed by Stripe; `event` is the parsed JSON, or null when the signed body is not a readable event. */
  | { verified: true; event: unknown }

/** Checks the Stripe-Signature header against the raw body. Nothing about the event's shape is trusted yet. */
export async function verifyStripeWebhook(
  payload: Buffer,
  signature: string,
  secret: string,
): Promise<VerifiedWebhook> {
  try {
    await Stripe.webhooks.signature!.verifyHeaderAsync(payload, signature, secret)
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return { verified: false }
    throw error
  }
  try {
    return { verified: true, event: JSON.parse(payload.toString('utf8')) as unknown }
  } catch {
    return { verified: true, event: null } // signed by Stripe, but not JSON: acknowledged, never applied
  }
}

/** A valid Stripe-Signature header for a payload: what the local fake Stripe signs its webhooks with. */
export function stripeSignatureHeader(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret })
}
