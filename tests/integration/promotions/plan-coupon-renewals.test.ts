// Plan coupons on PayPal and bank-transfer memberships (issue 32, decision 0050): the renewal orders the membership
// schedule makes take the first order's stored plan share off for as long as the code's duration covers them — the
// rule Stripe applies to a card membership's renewal invoices (tests/integration/promotions/plan-coupons.test.ts):
// `once` the first payment only, `repeating` N months from the start, `forever` every renewal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { runMembershipSchedule } from '../../../src-server/flows/membership-renewals.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { planRenewalDiscount } from '../../../src-server/promotions/plan-coupon-renewals.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db
const DAY = 86_400_000
const BASIC_MONTHLY = 999
const deps = () => ({ db: db(), publicUrl: 'http://shop.test', referencePrefix: 'SF' })

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

let seq = 0
async function planCoupon(input: Record<string, unknown>) {
  const code = `RENEW${Date.now().toString(36).toUpperCase()}${seq++}`
  const staff = await callerAs(db(), await createUser(db(), { role: 'editor' }))
  await staff.admin.coupons.create({ code, appliesTo: 'plans', ...input } as never)
  return code
}

/**
 * A member of Basic monthly who paid the first order by `method` with the code (staff confirm it), then `renewals`
 * renewals: each made by the schedule 6 days before renews_at and paid. Returns every order's total and discount.
 */
async function memberPays(code: string, method: 'bank_transfer' | 'paypal', renewals: number) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user)
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  await caller.cart.applyCoupon({ code })
  const first = await createFromCart(db(), { userId: user.id, currency: 'USD', method, referencePrefix: 'SF' })
  await markPaid(db(), first.id, { source: 'staff' })
  const orderIds = [first.id]
  for (let n = 0; n < renewals; n++) {
    const sub = await db()
      .selectFrom('subscriptions')
      .select(['renews_at'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    await runMembershipSchedule(deps(), new Date(sub.renews_at!.getTime() - 6 * DAY))
    const { renewal_order_id } = await db()
      .selectFrom('subscriptions')
      .select('renewal_order_id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(renewal_order_id, `renewal ${n + 1} made`).not.toBeNull()
    expect(await markPaid(db(), renewal_order_id!, { source: 'staff' })).toBe('fulfilled')
    orderIds.push(renewal_order_id!)
  }
  const orders = await db()
    .selectFrom('orders')
    .select(['id', 'method', 'total_minor', 'discount_minor', 'coupon_code'])
    .where('id', 'in', orderIds)
    .execute()
  const lines = await db()
    .selectFrom('order_items')
    .select(['order_id', 'unit_price_minor', 'discount_minor'])
    .where('order_id', 'in', orderIds)
    .execute()
  return orderIds.map((id) => {
    const order = orders.find((row) => row.id === id)!
    const line = lines.find((row) => row.order_id === id)!
    // The line carries the same share the order does (invoices, refunds and the gateways read it there).
    expect(line.discount_minor).toBe(order.discount_minor)
    expect(order.method).toBe(method)
    return { total: order.total_minor, code: order.coupon_code }
  })
}

describe('PayPal and bank-transfer renewals keep a plan code for its duration', () => {
  it('`repeating` 3 months ($3 off, bank transfer): three payments at $6.99, then $9.99 without the code', async () => {
    const code = await planCoupon({
      kind: 'fixed',
      amountsOff: { USD: 300 },
      planDuration: 'repeating',
      planDurationMonths: 3,
    })
    const orders = await memberPays(code, 'bank_transfer', 3)
    expect(orders.map((order) => order.total)).toEqual([699, 699, 699, BASIC_MONTHLY])
    expect(orders.map((order) => order.code)).toEqual([code, code, code, null])
  })

  it('`forever` 20 % (PayPal): every renewal at $7.99', async () => {
    const forever = await planCoupon({ kind: 'percent', percentOff: 20, planDuration: 'forever' })
    expect((await memberPays(forever, 'paypal', 2)).map((order) => order.total)).toEqual([799, 799, 799])
  })

  it('`once` 50 % (bank transfer): the renewal at full price', async () => {
    const once = await planCoupon({ kind: 'percent', percentOff: 50, planDuration: 'once' })
    expect((await memberPays(once, 'bank_transfer', 1)).map((order) => order.total)).toEqual([499, BASIC_MONTHLY])
  })

  it('the rule counts calendar months as Stripe does (an annual renewal outlives a 3-month code) and never goes below 0', () => {
    const repeating = { duration: 'repeating' as const, months: 3, shareMinor: 300 }
    const monthly = (index: number) => planRenewalDiscount(repeating, { cycle: 'monthly', index, priceMinor: 999 })
    expect([1, 2, 3].map(monthly)).toEqual([300, 300, 0])
    expect(planRenewalDiscount(repeating, { cycle: 'annual', index: 1, priceMinor: 9999 })).toBe(0)
    const twoYears = { ...repeating, months: 24 }
    expect(planRenewalDiscount(twoYears, { cycle: 'annual', index: 1, priceMinor: 9999 })).toBe(300)
    expect(planRenewalDiscount(twoYears, { cycle: 'annual', index: 2, priceMinor: 9999 })).toBe(0)
    expect(
      planRenewalDiscount(
        { duration: 'forever', months: null, shareMinor: 800 },
        { cycle: 'monthly', index: 5, priceMinor: 500 },
      ),
    ).toBe(500)
  })
})
