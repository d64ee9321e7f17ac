// Stripe's side for browser tests: signed events sent to the running server's webhook as Stripe would send them, and
// card orders paid as that webhook pays them (the server's own payment path).
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.ts'
import { markPaid } from '../../src-server/flows/pay-order.ts'
import { stripeSignatureHeader } from '../../src-server/payments/stripe.ts'
import { placeOrder } from '../support/orders.ts'
import { expect } from './fixtures.ts'

/** The secret scripts/e2e-server.ts's fake Stripe signs with (its default), which the server verifies. */
const WEBHOOK_SECRET = 'whsec_fake_secret'
export const token = () => randomBytes(8).toString('hex')
let counter = 0

/** Sends a signed Stripe event to the server, as Stripe would. */
export async function deliver(baseURL: string, type: string, object: unknown) {
  const payload = JSON.stringify({
    id: `evt_e2e_${token()}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  })
  const response = await fetch(`${baseURL}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignatureHeader(payload, WEBHOOK_SECRET) },
    body: payload,
  })
  expect(response.status).toBe(200)
}

/** A card order for the courses, paid as the Stripe webhook pays it. */
export async function paidCardOrder(
  db: Kysely<Database>,
  userId: string,
  courses: { id: string; title: string; price_minor: number }[],
) {
  counter += 1
  const reference = `SF-EDGE-${Date.now().toString(36).toUpperCase()}-${counter}`
  const orderId = await placeOrder(db, { userId, reference, courses, method: 'card', status: 'pending' })
  const paymentIntent = `pi_e2e_${token()}`
  expect(await markPaid(db, orderId, { source: 'stripe', stripePaymentIntentId: paymentIntent })).toBe('fulfilled')
  const total = courses.reduce((sum, course) => sum + course.price_minor, 0)
  return { reference, orderId, paymentIntent, total }
}

/** A dispute of the order's payment, as `charge.dispute.*` events carry it. */
export function disputeOf(order: { reference: string; paymentIntent: string; total: number }, status: string) {
  return {
    id: `dp_e2e_${order.reference}`,
    object: 'dispute',
    amount: order.total,
    charge: `ch_${order.paymentIntent.slice(3)}`,
    payment_intent: order.paymentIntent,
    reason: 'fraudulent',
    status,
  }
}
