// A plan's card payment disputed, its subscription then ended at Stripe (cancelled at once), and the dispute won:
// winning gives back what the dispute withheld, not a membership that has ended meanwhile. The Premium grant was
// already revoked ('dispute') when the subscription ended, so the end's own revocation changed nothing; the won
// dispute must not bring Premium back for the rest of the paid period.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processStripeEvent } from '../../../src-server/flows/apply-stripe-event.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { parseStripeEvent } from '../../../src-server/payments/stripe-event.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { buyerWhoHadAPlan, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
})
afterAll(() => shop.close())

async function apply(type: string, object: unknown) {
  const { outcome } = await processStripeEvent(db(), parseStripeEvent(fake.signedEvent(type, object).event))
  return outcome
}

const dispute = (id: string, paymentIntent: string, status: string) => ({
  id,
  object: 'dispute',
  amount: null,
  payment_intent: paymentIntent,
  reason: null,
  status,
})

describe('a won dispute of a plan whose subscription ended meanwhile', () => {
  it('does not give Premium back (a running plan’s won dispute does: orders/refund-requests-disputes.test.ts)', async () => {
    const user = await buyerWhoHadAPlan(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const session = fake.completeSession(sessionIdOf(started.url))
    expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    const { stripe_payment_intent_id: paymentIntent } = await db()
      .selectFrom('orders')
      .select('stripe_payment_intent_id')
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow()
    expect(await isPremium(db(), user)).toBe(true)

    expect(await apply('charge.dispute.created', dispute('dp_ended', paymentIntent!, 'needs_response'))).toBe(
      'processed',
    )
    expect(await isPremium(db(), user)).toBe(false)
    // The member cancels at once in Stripe's portal while the dispute is open.
    fake.billing.cancelNow(session.subscription!)
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    expect(
      await db().selectFrom('subscriptions').select('status').where('order_id', '=', started.orderId).execute(),
    ).toEqual([{ status: 'cancelled' }])

    expect(await apply('charge.dispute.closed', dispute('dp_ended', paymentIntent!, 'won'))).toBe('processed')
    expect(await isPremium(db(), user)).toBe(false)
    const grants = await db()
      .selectFrom('access_grants')
      .select(['revoked_reason'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'premium')
      .execute()
    expect(grants).toEqual([{ revoked_reason: 'cancellation' }])
  })
})
