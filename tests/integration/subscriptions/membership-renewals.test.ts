// The hourly membership schedule (flows/membership-renewals.ts), run at chosen moments: a PayPal / bank-transfer member
// gets a renewal order and a reminder 7 days before renews_at (once), paying it extends the membership, leaving it
// unpaid lapses the membership 3 days after (Premium revoked with reason 'lapse', one e-mail), and a plan ended by its
// cancellation takes its unpaid renewal order with it; trial reminders go
// 3 days before a trial ends and annual renewal reminders 7 days before, each once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { runMembershipSchedule } from '../../../src-server/flows/membership-renewals.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { defaultPayments } from '../../../src-server/payments/config.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { applyStripeSnapshot } from '../../../src-server/subscriptions/state.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db
const DAY = 86_400_000
const deps = () => ({ db: db(), publicUrl: 'http://shop.test', referencePrefix: 'SF' })
const at = (days: number, from = Date.now()) => new Date(from + days * DAY)

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** A member whose plan order was paid (by staff for a bank transfer or PayPal, or by Stripe for a card). */
async function member(
  method: 'bank_transfer' | 'paypal' | 'card',
  planId = 'basic',
  cycle: 'monthly' | 'annual' = 'monthly',
) {
  const user = await createUser(db())
  await (await shopCaller(db(), user)).cart.add({ kind: 'plan', planId, billingCycle: cycle })
  const order = await createFromCart(db(), { userId: user.id, currency: 'USD', method, referencePrefix: 'SF' })
  const source = method === 'card' ? 'stripe' : 'staff'
  await markPaid(db(), order.id, { source, stripeSubscriptionId: method === 'card' ? `sub_${user.id}` : null })
  const sub = await subscriptionOf(user)
  return { user, sub }
}

const subscriptionOf = (user: TestUser) =>
  db()
    .selectFrom('subscriptions')
    .select(['id', 'status', 'renews_at', 'renewal_order_id', 'end_reason'])
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow()
const mails = (user: TestUser, kind: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', user.email)
    .where('kind', '=', kind)
    .execute()

describe('renewals without a card', () => {
  it('a renewal order and one reminder 7 days before; paying it renews the membership for a period', async () => {
    const { user, sub } = await member('bank_transfer')
    const renewsAt = sub.renews_at!.getTime()
    await runMembershipSchedule(deps(), at(-8, renewsAt))
    expect((await subscriptionOf(user)).renewal_order_id).toBeNull()

    const counts = await runMembershipSchedule(deps(), at(-6, renewsAt))
    expect(counts).toMatchObject({ renewalOrders: 1 })
    const { renewal_order_id } = await subscriptionOf(user)
    const order = await db()
      .selectFrom('orders')
      .select(['status', 'method', 'reference', 'total_minor'])
      .where('id', '=', renewal_order_id!)
      .executeTakeFirstOrThrow()
    expect(order).toMatchObject({ status: 'pending', method: 'bank_transfer', total_minor: 999 })
    const reminders = await mails(user, 'renewal_reminder')
    expect(reminders).toHaveLength(1)
    expect(reminders[0]?.text_body).toContain(order.reference)
    // The next hourly run sends nothing more.
    expect(await runMembershipSchedule(deps(), at(-5, renewsAt))).toMatchObject({ renewalOrders: 0 })
    expect(await mails(user, 'renewal_reminder')).toHaveLength(1)

    expect(await markPaid(db(), renewal_order_id!, { source: 'staff' })).toBe('fulfilled')
    const renewed = await subscriptionOf(user)
    expect(renewed).toMatchObject({ status: 'active', renewal_order_id: null })
    expect(renewed.renews_at!.getTime()).toBe(renewsAt + 30 * DAY)
    expect(await db().selectFrom('subscriptions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1)
    await runMembershipSchedule(deps(), at(4, renewsAt))
    expect((await subscriptionOf(user)).status).toBe('active')
    expect(await isPremium(db(), user, at(4, renewsAt))).toBe(true)
  })

  it('unpaid, it lapses 3 days after renews_at: Premium revoked for lapse, one e-mail', async () => {
    const { user, sub } = await member('bank_transfer', 'pro')
    const renewsAt = sub.renews_at!.getTime()
    await runMembershipSchedule(deps(), at(-6, renewsAt))
    await runMembershipSchedule(deps(), at(2, renewsAt))
    expect((await subscriptionOf(user)).status).toBe('active')
    expect(await isPremium(db(), user, at(2, renewsAt))).toBe(true)

    expect(await runMembershipSchedule(deps(), at(3.1, renewsAt))).toMatchObject({ lapsed: 1 })
    expect(await subscriptionOf(user)).toMatchObject({ status: 'cancelled', end_reason: 'lapse' })
    const grant = await db()
      .selectFrom('access_grants')
      .select(['revoked_reason', 'revoked_at'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(grant).toEqual({ revoked_reason: 'lapse', revoked_at: at(3, renewsAt) })
    expect(await isPremium(db(), user)).toBe(false)
    expect(await mails(user, 'membership_lapsed')).toHaveLength(1)
    expect(await runMembershipSchedule(deps(), at(4, renewsAt))).toMatchObject({ lapsed: 0 })
    expect(await mails(user, 'membership_lapsed')).toHaveLength(1)

    // Paid late after all: the membership is live again and its Premium restored.
    const { renewal_order_id } = await subscriptionOf(user)
    expect(await markPaid(db(), renewal_order_id!, { source: 'staff' })).toBe('fulfilled')
    expect((await subscriptionOf(user)).status).toBe('active')
    expect(await isPremium(db(), user)).toBe(true)
  })
})

describe('a cancelled plan without a card', () => {
  const orderOf = (id: string) =>
    db().selectFrom('orders').select(['status', 'status_changed_by']).where('id', '=', id).executeTakeFirstOrThrow()

  it('ends at its period’s end with its unpaid renewal order cancelled: paying it would buy nothing', async () => {
    const { user, sub } = await member('bank_transfer')
    const renewsAt = sub.renews_at!.getTime()
    await runMembershipSchedule(deps(), at(-6, renewsAt))
    const { renewal_order_id } = await subscriptionOf(user)
    await (await shopCaller(db(), user)).membership.cancel({})
    await runMembershipSchedule(deps(), at(-1, renewsAt))
    expect(await orderOf(renewal_order_id!)).toMatchObject({ status: 'pending' })

    await runMembershipSchedule(deps(), at(0.1, renewsAt))
    expect(await subscriptionOf(user)).toMatchObject({ status: 'cancelled', end_reason: 'cancellation' })
    expect(await orderOf(renewal_order_id!)).toEqual({ status: 'cancelled', status_changed_by: null })
  })

  it('ended now by staff, its unpaid renewal order is cancelled too, in their name', async () => {
    const { user, sub } = await member('bank_transfer')
    await runMembershipSchedule(deps(), at(-6, sub.renews_at!.getTime()))
    const { renewal_order_id } = await subscriptionOf(user)
    const admin = await createUser(db(), { role: 'admin' })
    await (await shopCaller(db(), admin)).admin.orders.endMembership({ subscriptionId: sub.id, when: 'now' })
    expect(await subscriptionOf(user)).toMatchObject({ status: 'cancelled', end_reason: 'cancellation' })
    expect(await isPremium(db(), user)).toBe(false)
    expect(await orderOf(renewal_order_id!)).toEqual({ status: 'cancelled', status_changed_by: admin.id })
  })

  it('ended now by staff, a PayPal renewal order reads cancelled to its buyer and a late payment is refused', async () => {
    const { user, sub } = await member('paypal')
    const renewsAt = sub.renews_at!.getTime()
    await runMembershipSchedule(deps(), at(-6, renewsAt))
    const { renewal_order_id } = await subscriptionOf(user)
    const buyer = await shopCaller(db(), user, { ...defaultPayments, paypalMeUrl: 'https://paypal.me/skillforge' })
    const renewalOrder = async () => (await buyer.purchases.orders()).find((order) => order.id === renewal_order_id)
    expect(await renewalOrder()).toMatchObject({ status: 'pending', paypalUrl: expect.any(String) })

    const admin = await createUser(db(), { role: 'admin' })
    const staff = await shopCaller(db(), admin)
    await staff.admin.orders.endMembership({ subscriptionId: sub.id, when: 'now' })
    expect(await renewalOrder()).toMatchObject({ status: 'cancelled', paypalUrl: null })

    // The PayPal money arrives anyway: staff cannot confirm it, and the plan neither reopens nor runs on.
    await expect(staff.admin.orders.markPaid({ id: renewal_order_id! })).rejects.toThrow(
      'A cancelled order cannot be marked as paid',
    )
    expect(await subscriptionOf(user)).toMatchObject({ status: 'cancelled', end_reason: 'cancellation' })
    expect(await isPremium(db(), user)).toBe(false)
    await runMembershipSchedule(deps(), at(1, renewsAt))
    expect(await subscriptionOf(user)).toMatchObject({ status: 'cancelled', renews_at: sub.renews_at })
    expect(await isPremium(db(), user)).toBe(false)
  })
})

describe('the renewal order', () => {
  it('is one line of the plan for one more period at its price now, beside the cart (monthly and annual)', async () => {
    for (const [planId, cycle] of [
      ['basic', 'monthly'],
      ['pro', 'annual'],
    ] as const) {
      const { user, sub } = await member('bank_transfer', planId, cycle)
      // A checkout of the cart is under way meanwhile: the renewal order stands beside it.
      const [course] = await pricedCourses(db())
      await (await shopCaller(db(), user)).cart.add({ kind: 'course', courseId: course!.id })
      await createFromCart(db(), { userId: user.id, currency: 'USD', method: 'bank_transfer', referencePrefix: 'SF' })
      await runMembershipSchedule(deps(), at(-6, sub.renews_at!.getTime()))
      const { renewal_order_id } = await subscriptionOf(user)
      const plan = await db()
        .selectFrom('plans')
        .select(['name', 'monthly_price_minor', 'annual_price_minor'])
        .where('id', '=', planId)
        .executeTakeFirstOrThrow()
      const price = cycle === 'annual' ? plan.annual_price_minor : plan.monthly_price_minor
      const order = await db()
        .selectFrom('orders')
        .select(['status', 'method', 'source', 'currency', 'total_minor'])
        .where('id', '=', renewal_order_id!)
        .executeTakeFirstOrThrow()
      expect(order).toEqual({
        status: 'pending',
        method: 'bank_transfer',
        source: 'renewal',
        currency: 'USD',
        total_minor: price,
      })
      const lines = await db()
        .selectFrom('order_items')
        .select(['kind', 'plan_id', 'item_key', 'billing_cycle', 'recurring_interval', 'title', 'detail'])
        .select('unit_price_minor')
        .where('order_id', '=', renewal_order_id!)
        .execute()
      expect(lines).toEqual([
        {
          kind: 'plan',
          plan_id: planId,
          item_key: `plan:${planId}`,
          billing_cycle: cycle,
          recurring_interval: cycle === 'annual' ? 'year' : 'month',
          title: plan.name,
          detail: cycle === 'annual' ? 'Renewal, billed annually' : 'Renewal, billed monthly',
          unit_price_minor: price,
        },
      ])
    }
  })
})

describe('reminders', () => {
  it('3 days before a trial ends, once', async () => {
    const { user, sub } = await member('card')
    const trialEnd = sub.renews_at!.getTime()
    expect(await runMembershipSchedule(deps(), at(-4, trialEnd))).toMatchObject({ trialReminders: 0 })
    expect(await runMembershipSchedule(deps(), at(-2.9, trialEnd))).toMatchObject({ trialReminders: 1 })
    expect(await runMembershipSchedule(deps(), at(-2, trialEnd))).toMatchObject({ trialReminders: 0 })
    const sent = await mails(user, 'trial_ending')
    expect(sent).toHaveLength(1)
    expect(sent[0]?.text_body).toContain('first charge of $9.99')
  })

  it('7 days before an annual card renewal, once; never for a monthly card plan', async () => {
    const annual = await member('card', 'pro', 'annual')
    const monthly = await member('card', 'basic', 'monthly')
    const periodEnd = at(300)
    for (const { sub } of [annual, monthly]) {
      await applyStripeSnapshot(db(), sub.id, {
        eventAt: new Date(),
        status: 'active',
        periodEnd,
        trialEnd: null,
        cancelAtPeriodEnd: false,
        endedAt: null,
        endReason: 'cancellation',
        customerId: 'cus_x',
        plan: null,
        price: null,
      })
    }
    expect(await runMembershipSchedule(deps(), at(-8, periodEnd.getTime()))).toMatchObject({ renewalReminders: 0 })
    await runMembershipSchedule(deps(), at(-6, periodEnd.getTime()))
    await runMembershipSchedule(deps(), at(-5, periodEnd.getTime()))
    expect(await mails(annual.user, 'renewal_reminder')).toHaveLength(1)
    expect(await mails(monthly.user, 'renewal_reminder')).toHaveLength(0)
  })
})
