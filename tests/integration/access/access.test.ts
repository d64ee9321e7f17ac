// access/: who may open a course, who is Premium, and the cart's "already owned" check, answered from the access
// ledger and the role. Orders are paid through orders/ as checkout and staff do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canOpenCourse, ownsCourse } from '../../../src-server/access/courses.ts'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { applyStripeSnapshot } from '../../../src-server/subscriptions/state.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { buyerWhoHadAPlan, publishedCourse, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** A buyer whose order for the given cart items has been paid (by staff, as for PayPal or a bank transfer). */
async function buyerOf(add: (caller: Awaited<ReturnType<typeof shopCaller>>) => Promise<unknown>) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user)
  await add(caller)
  const order = await createFromCart(db(), {
    userId: user.id,
    currency: 'USD',
    method: 'bank_transfer',
    referencePrefix: 'SF',
  })
  expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
  return { user, caller }
}

describe('canOpenCourse', () => {
  it('opens a course for its buyers and for staff, not for visitors or other customers', async () => {
    const course = await publishedCourse(db(), 0)
    const other = await publishedCourse(db(), 1)
    const { user } = await buyerOf((caller) => caller.cart.add({ kind: 'course', courseId: course.id }))
    expect(await canOpenCourse(db(), user, course.id)).toBe(true)
    expect(await canOpenCourse(db(), user, other.id)).toBe(false)
    expect(await canOpenCourse(db(), null, course.id)).toBe(false)
    const stranger = await createUser(db())
    expect(await canOpenCourse(db(), stranger, course.id)).toBe(false)
    for (const role of ['viewer', 'editor', 'admin', 'super_admin'] as const) {
      expect(await canOpenCourse(db(), await createUser(db(), { role }), other.id)).toBe(true)
    }
  })

  it('the cart refuses a course the user already owns, with the spec message', async () => {
    const course = await publishedCourse(db(), 2)
    const { user, caller } = await buyerOf((c) => c.cart.add({ kind: 'course', courseId: course.id }))
    expect(await ownsCourse(db(), user.id, course.id)).toBe(true)
    await expect(caller.cart.add({ kind: 'course', courseId: course.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'You already own this course',
    })
  })
})

describe('isPremium', () => {
  it('is true while a manually paid plan runs and its 3 days of grace, and false after', async () => {
    const { user } = await buyerOf((caller) =>
      caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' }),
    )
    expect(await isPremium(db(), user)).toBe(true)
    expect(await isPremium(db(), user, new Date(Date.now() + 29 * 86_400_000))).toBe(true)
    expect(await isPremium(db(), user, new Date(Date.now() + 32 * 86_400_000))).toBe(true)
    expect(await isPremium(db(), user, new Date(Date.now() + 34 * 86_400_000))).toBe(false)
    expect(await isPremium(db(), await createUser(db()))).toBe(false)
  })

  it('follows Stripe for a card subscription: the trial plus grace, until Stripe says it ended', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })
    const order = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'card',
      referencePrefix: 'SF',
    })
    await markPaid(db(), order.id, { source: 'stripe', stripeSubscriptionId: 'sub_test_access' })
    const trial = await db()
      .selectFrom('subscriptions')
      .select(['status', 'renews_at'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(trial.status).toBe('trialing')
    // The 7-day free trial (one constant, shared with Stripe Checkout's trial_period_days).
    expect(Math.round((trial.renews_at!.getTime() - Date.now()) / 86_400_000)).toBe(7)
    expect(await isPremium(db(), user, new Date(Date.now() + 9 * 86_400_000))).toBe(true)
    expect(await isPremium(db(), user, new Date(Date.now() + 11 * 86_400_000))).toBe(false)
    const { id } = await db()
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    const now = new Date()
    await applyStripeSnapshot(db(), id, {
      eventAt: now,
      status: 'canceled',
      periodEnd: null,
      trialEnd: null,
      cancelAtPeriodEnd: false,
      endedAt: now,
      endReason: 'cancellation',
      customerId: null,
      plan: null,
      price: null,
    })
    expect(await isPremium(db(), user)).toBe(false)
  })
})

describe('purchases.entitlements', () => {
  it('a visitor has nothing and the free trial open', async () => {
    expect(await (await shopCaller(db(), null)).purchases.entitlements()).toEqual({
      isPremium: false,
      plan: null,
      renewsAt: null,
      gift: null,
      courseIds: [],
      trialAvailable: true,
    })
  })

  it('a new customer has the trial open; someone who had a plan, even a cancelled one, has not', async () => {
    const newcomer = await shopCaller(db(), await createUser(db()))
    expect(await newcomer.purchases.entitlements()).toEqual({
      isPremium: false,
      plan: null,
      renewsAt: null,
      gift: null,
      courseIds: [],
      trialAvailable: true,
    })
    const former = await shopCaller(db(), await buyerWhoHadAPlan(db()))
    expect(await former.purchases.entitlements()).toEqual({
      isPremium: false,
      plan: null,
      renewsAt: null,
      gift: null,
      courseIds: [],
      trialAvailable: false,
    })
  })

  it('a buyer of a course and a plan: Premium with its plan and renewal, the course, no second trial', async () => {
    const course = await publishedCourse(db(), 3)
    const { user, caller } = await buyerOf(async (c) => {
      await c.cart.add({ kind: 'course', courseId: course.id })
      await c.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    })
    const { renews_at } = await db()
      .selectFrom('subscriptions')
      .select('renews_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(await caller.purchases.entitlements()).toEqual({
      isPremium: true,
      plan: { id: 'basic', name: 'Basic', billingCycle: 'monthly', status: 'active', cancelAtPeriodEnd: false },
      renewsAt: renews_at!.toISOString(),
      gift: null,
      courseIds: [course.id],
      trialAvailable: false,
    })
  })
})
