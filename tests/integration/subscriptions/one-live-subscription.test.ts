// One live subscription per user, whatever the client sends: ten checkouts started at once for the same plan, all
// paid at Stripe and their webhooks delivered at once, leave one live subscription and one Premium grant; the other
// nine are recorded as duplicates of it and cancelled at Stripe. (Run with TEST_DATABASE_URL: only PostgreSQL runs them truly in parallel.)
import { afterAll, beforeAll, describe, expect } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt } from '../../support/race.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let database: DatabaseHandle
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ database, fake, payments } = shop)
})
afterAll(() => shop.close())

describe('one live subscription per user', () => {
  raceIt('10 concurrent checkouts, all paid and delivered at once, give one live subscription', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    // Concurrent checkouts of one cart share its one pending order (issue 13)...
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () => caller.payments.start({ currency: 'USD', method: 'card' })),
    )
    expect(new Set(concurrent.map((start) => start.orderId)).size).toBe(1)
    // ...so ten paid checkouts need ten orders: each earlier one is left failed (as a declined card leaves it) while
    // its Stripe page stays open, and all ten are paid and delivered at once.
    const started = [concurrent[0]!]
    for (let i = 1; i < 10; i++) {
      await db()
        .updateTable('orders')
        .set({ status: 'failed' })
        .where('id', '=', started[i - 1]!.orderId)
        .execute()
      started.push(await caller.payments.start({ currency: 'USD', method: 'card' }))
    }
    const sessions = started.map((start) => {
      if (start.method !== 'card') throw new Error('expected card')
      return fake.completeSession(new URL(start.url).pathname.split('/').pop()!)
    })
    const statuses = await Promise.all(sessions.map((session) => fake.deliver('checkout.session.completed', session)))
    expect(statuses).toEqual(Array(10).fill(200))
    expect(new Set(await fake.flush())).toEqual(new Set([200]))

    const subscriptions = await db()
      .selectFrom('subscriptions')
      .select(['id', 'status', 'duplicate_of'])
      .where('user_id', '=', user.id)
      .execute()
    const live = subscriptions.filter((sub) => sub.status !== 'cancelled')
    expect(live).toHaveLength(1)
    expect(subscriptions).toHaveLength(10)
    expect(subscriptions.filter((sub) => sub.duplicate_of === live[0]!.id)).toHaveLength(9)
    const grants = await db()
      .selectFrom('access_grants')
      .select(['kind', 'subscription_id'])
      .where('user_id', '=', user.id)
      .execute()
    expect(grants).toEqual([{ kind: 'premium', subscription_id: live[0]!.id }])
    // The nine duplicates were stopped at Stripe; the live one runs on.
    const atStripe = sessions.map((session) => fake.billing.retrieve(session.subscription!)!.status)
    expect(atStripe.filter((status) => status === 'canceled')).toHaveLength(9)
    expect(atStripe.filter((status) => status === 'trialing')).toHaveLength(1)
    // And the member can no longer start another plan checkout.
    await db()
      .insertInto('cart_items')
      .values({ user_id: user.id, kind: 'plan', plan_id: 'basic', billing_cycle: 'annual' })
      .execute()
    await expect(caller.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({ code: 'CONFLICT' })
  })
})
