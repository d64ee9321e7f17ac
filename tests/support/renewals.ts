// A member whose Stripe subscription renewed, and a buyer of monthly SEO management whose second month was paid: shared
// by the renewal refund and dispute tests (decisions 0089, 0104).
import { expect } from 'vitest'
import { createUser, type TestUser } from './factories.ts'
import { type PaymentsServer, payCartByCard, sessionIdOf } from './payments-server.ts'
import { servicePackage, shopCaller } from './shop.ts'

const DAY = 86_400

/** A first-time member of the monthly Basic plan (a free trial), whose first charge Stripe took when the trial ended. */
export async function renewedMember(shop: PaymentsServer) {
  const { fake, payments } = shop
  const db = shop.database.db
  fake.billing.resetClock()
  const user: TestUser = await createUser(db)
  const caller = await shopCaller(db, user, payments)
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  const session = fake.completeSession(sessionIdOf(started.url), 'no_payment_required')
  expect(session.amount_total).toBe(0)
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  expect(new Set(await fake.advance(8 * DAY))).toEqual(new Set([200])) // the trial ends: the first charge, paid
  const renewal = [...fake.billing.invoices.values()].find(
    (inv) => inv.parent.subscription_details.subscription === session.subscription && inv.amount_paid > 0,
  )!
  const paymentIntent = fake.invoicePayments.get(renewal.id)!
  expect(paymentIntent).toMatch(/^pi_/)
  return { user, caller, orderId: started.orderId, renewal, paymentIntent, stripeSubscription: session.subscription! }
}

/** A buyer of monthly SEO management by card, one month on: the second month paid by its own Stripe invoice. */
export async function renewedServiceBuyer(shop: PaymentsServer) {
  const { fake, payments } = shop
  const db = shop.database.db
  fake.billing.resetClock()
  const user: TestUser = await createUser(db)
  const caller = await shopCaller(db, user, payments)
  const pkg = await servicePackage(db, 'seo-management', 'Starter SEO Monthly')
  await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
  const orderId = await payCartByCard(fake, caller)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  const [serviceOrder] = await caller.serviceOrders.mine()
  expect(new Set(await fake.advance(32 * DAY))).toEqual(new Set([200])) // a month on: the second month, paid
  const stripeSubscription = (
    await db
      .selectFrom('service_orders')
      .select('stripe_subscription_id')
      .where('id', '=', serviceOrder!.id)
      .executeTakeFirstOrThrow()
  ).stripe_subscription_id!
  const renewal = [...fake.billing.invoices.values()].find(
    (inv) =>
      inv.parent.subscription_details.subscription === stripeSubscription &&
      inv.billing_reason === 'subscription_cycle' &&
      inv.amount_paid > 0,
  )!
  const paymentIntent = fake.invoicePayments.get(renewal.id)!
  expect(paymentIntent).toMatch(/^pi_/)
  return { user, caller, pkg, orderId, serviceOrderId: serviceOrder!.id, renewal, paymentIntent, stripeSubscription }
}
