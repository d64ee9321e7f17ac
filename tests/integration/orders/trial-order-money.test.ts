// An order that started a free trial reads as the money it took (decision 0089), without Stripe Tax (so no tax rewrote
// the total): the buyer's order history and the staff order views show the trial's plan line at 0, marked as a free
// trial, and the order's total as what Stripe took; a whole-order refund of a trial that took nothing is refused with
// what to do instead, and the plan runs on; a trial order whose course was refunded reads Partially refunded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { REFUND_MESSAGES } from '../../../src-shared/schemas/orders.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const staff = () => shopCaller(db(), admin, payments)

/** A first-time member (so a free trial) checks out the Basic plan, and a course when `withCourse`, by card. */
async function trialCheckout(withCourse: { offset: number } | null) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, payments)
  const [course] = withCourse ? await pricedCourses(db(), { count: 1, offset: withCourse.offset }) : []
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  if (course) await caller.cart.add({ kind: 'course', courseId: course.id })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  const session = fake.completeSession(sessionIdOf(started.url))
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  const plan = await db()
    .selectFrom('plans')
    .select('monthly_price_minor')
    .where('id', '=', 'basic')
    .executeTakeFirstOrThrow()
  return { user, caller, course, orderId: started.orderId, session, planPrice: plan.monthly_price_minor }
}

const subscriptionOf = (orderId: string) =>
  db()
    .selectFrom('subscriptions')
    .select(['status', 'ended_at', 'end_reason'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow()

describe('a trial’s plan line reads as what it took', () => {
  it('order history and the staff views show the plan at 0 (Free trial) and the total Stripe took', async () => {
    const { caller, course, orderId, session, planPrice } = await trialCheckout({ offset: 0 })
    expect(planPrice).toBeGreaterThan(0)
    expect(session.amount_total).toBe(course!.price_minor)

    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ id: orderId, status: 'paid', totalMinor: course!.price_minor })
    const items = order!.items.map(({ kind, priceMinor, freeTrial }) => ({ kind, priceMinor, freeTrial }))
    expect(items).toEqual(
      expect.arrayContaining([
        { kind: 'plan', priceMinor: 0, freeTrial: true },
        { kind: 'course', priceMinor: course!.price_minor, freeTrial: false },
      ]),
    )

    const detail = await (await staff()).admin.orders.detail({ id: orderId })
    expect(detail.totalMinor).toBe(course!.price_minor)
    expect(detail.lines.map(({ kind, priceMinor, freeTrial }) => ({ kind, priceMinor, freeTrial }))).toEqual(
      expect.arrayContaining([
        { kind: 'plan', priceMinor: 0, freeTrial: true },
        { kind: 'course', priceMinor: course!.price_minor, freeTrial: false },
      ]),
    )
    const { items: listed } = await (await staff()).admin.orders.list({})
    // The course's money can be given back: staff are offered Refund.
    expect(listed.find((row) => row.id === orderId)).toMatchObject({
      totalMinor: course!.price_minor,
      refundable: true,
    })
  })

  it('a trial of the plan alone took nothing: its total is 0 and a whole-order refund is refused, the plan runs on', async () => {
    const { user, caller, orderId } = await trialCheckout(null)
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ id: orderId, status: 'paid', totalMinor: 0 })
    expect(order!.items).toEqual([expect.objectContaining({ kind: 'plan', priceMinor: 0, freeTrial: true })])

    // Staff are not offered Refund, which could only refuse; asked anyway, the refusal says what to do instead.
    const { items: listed } = await (await staff()).admin.orders.list({})
    expect(listed.find((row) => row.id === orderId)).toMatchObject({ totalMinor: 0, refundable: false })
    const before = fake.calls.length
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: REFUND_MESSAGES.trialPaidNothing,
    })
    // Nothing asked of Stripe (it holds no payment to refund, and the subscription is not ended by a refund of 0).
    expect(fake.calls.slice(before)).toEqual([])
    expect(await db().selectFrom('refunds').select('id').where('order_id', '=', orderId).execute()).toEqual([])
    expect((await caller.purchases.orders())[0]).toMatchObject({ status: 'paid', refundedMinor: 0 })
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'trialing', ended_at: null })
    expect(await isPremium(db(), user)).toBe(true)
  })
})

describe('a trial order whose course was refunded', () => {
  it('reads Partially refunded: the course line refunded, the plan line in its trial; the rest cannot be refunded', async () => {
    const { user, caller, course, orderId, session } = await trialCheckout({ offset: 1 })
    const detail = await (await staff()).admin.orders.detail({ id: orderId })
    const courseLine = detail.lines.find((line) => line.kind === 'course')!
    const refund = await (await staff()).admin.orders.refund({ orderId, lineIds: [courseLine.id] })
    // All the money taken is back, but the trial's plan line was not given back: the order is not wholly refunded.
    expect(refund).toMatchObject({ amountMinor: course!.price_minor, status: 'partially_refunded' })

    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ status: 'partially_refunded', refundedMinor: course!.price_minor })
    expect(order!.items.map(({ kind, refunded, priceMinor }) => ({ kind, refunded, priceMinor }))).toEqual(
      expect.arrayContaining([
        { kind: 'course', refunded: true, priceMinor: course!.price_minor },
        { kind: 'plan', refunded: false, priceMinor: 0 },
      ]),
    )
    const { items: listed } = await (await staff()).admin.orders.list({})
    expect(listed.find((row) => row.id === orderId)).toMatchObject({ status: 'partially_refunded', refundable: false })

    // Refund whole order now names only the trial's plan line, which took nothing: refused, the plan runs on.
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: REFUND_MESSAGES.trialPaidNothing,
    })
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'trialing', ended_at: null })
    expect(fake.billing.subscriptions.get(session.subscription!)?.status).toBe('trialing')
    expect(await isPremium(db(), user)).toBe(true)
  })
})
