// Premium's revenue for the pool counts what a plan line was paid, after its coupon: a plan bought with a 50 % plan
// code took half the plan's price, and refunding it gives back that half. Before the fix the revenue (and the
// refunds) counted the list price, so the pool credited creators 30 % of money the shop never took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { monthBounds } from '../../../src-server/earnings/statements.ts'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { refundOrder } from '../../../src-server/flows/refunds.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { watchMonthOf } from '../../../src-server/learning/watch-time.ts'
import { premiumRevenueOfMonth } from '../../../src-server/orders/premium-revenue.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: TestDatabase
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  clock.resetClock()
  await database.close()
})

describe('Premium revenue of a month with a plan coupon', () => {
  it('counts the plan line at what was paid for it, and its refund at what was given back', async () => {
    const now = clock.now()
    await clock.advanceClock((Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2) - now.getTime()) / 1000)
    const month = watchMonthOf(clock.now())
    const { start, end } = monthBounds(month)

    const editor = await createUser(db(), { role: 'editor' })
    await (await callerAs(db(), editor)).admin.coupons.create({
      code: 'HALFPLAN',
      kind: 'percent',
      percentOff: 50,
      appliesTo: 'plans',
      planDuration: 'once',
    } as never)
    const buyer = await createUser(db())
    const caller = await shopCaller(db(), buyer)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
    await caller.cart.applyCoupon({ code: 'HALFPLAN' })
    const order = await createFromCart(db(), {
      userId: buyer.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
    })
    expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
    const paid = await db()
      .selectFrom('orders')
      .select(['captured_minor'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    const line = await db()
      .selectFrom('order_items')
      .select(['unit_price_minor', 'discount_minor'])
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(line.discount_minor).toBeGreaterThan(0)
    const net = line.unit_price_minor - line.discount_minor
    expect(paid.captured_minor).toBe(net)

    expect(await premiumRevenueOfMonth(db(), start, end)).toEqual([
      { currency: 'USD', revenueMinor: net, refundedMinor: 0 },
    ])

    const admin = await createUser(db(), { role: 'admin' })
    await refundOrder(
      db(),
      { orderId: order.id, reference: 'BANK-REFUND-1', actor: { id: admin.id, email: admin.email } },
      null,
    )
    expect(await premiumRevenueOfMonth(db(), start, end)).toEqual([
      { currency: 'USD', revenueMinor: net, refundedMinor: net },
    ])
  })
})
