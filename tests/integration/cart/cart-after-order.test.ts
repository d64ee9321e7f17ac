// The cart around an order: what an order bought leaves the cart (of that buyer, in that currency), and what a
// cancelled order held comes back, except a course owned meanwhile, an item gone from the catalogue, or what the
// cart already holds.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertCourse } from '../../../db/seed/factories.ts'
import { grant } from '../../../src-server/access/ledger.ts'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { defaultPayments, type PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { servicePackage, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** PayPal and bank transfer, no card: neither needs Stripe. */
const payments: PaymentsConfig = { ...defaultPayments, paypalMeUrl: 'https://paypal.me/skillforge' }

const cartKeys = async (userId: string) =>
  (await db().selectFrom('cart_items').select('item_key').where('user_id', '=', userId).execute())
    .map((row) => row.item_key)
    .sort()

/** A published USD course of the test's own, so nothing else owns, holds or references it. */
async function ownCourse(priceMinor: number) {
  const category = await db().selectFrom('categories').select('id').limit(1).executeTakeFirstOrThrow()
  const id = `after-order-${randomBytes(4).toString('hex')}`
  return insertCourse(db(), {
    id,
    title: `Course ${id}`,
    category_id: category.id,
    status: 'published',
    price_minor: priceMinor,
  })
}

async function shopper() {
  const user = await createUser(db())
  return { user, caller: await shopCaller(db(), user, payments) }
}

describe('what an order bought leaves the cart', () => {
  it('a paid order takes its lines out of its buyer’s cart; the other currency’s lines and other carts stay', async () => {
    const { user, caller } = await shopper()
    const course = await ownCourse(2_500)
    const formation = await servicePackage(db(), 'uk-company-formation', 'Standard')
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    await caller.cart.add({ kind: 'service_package', packageId: formation.id })
    const other = await shopper()
    await other.caller.cart.add({ kind: 'course', courseId: course.id })

    const order = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'card',
      referencePrefix: 'SF',
    })
    expect(order.totalMinor).toBe(2_500 + 999)
    // A card order leaves the cart as it is until it is paid.
    expect(await cartKeys(user.id)).toEqual(
      [`course:${course.id}`, 'plan:basic', `service_package:${formation.id}`].sort(),
    )
    expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
    expect(await cartKeys(user.id)).toEqual([`service_package:${formation.id}`])
    expect(await cartKeys(other.user.id)).toEqual([`course:${course.id}`])
    expect(await caller.cart.list()).toMatchObject({
      count: 1,
      totals: [{ currency: 'GBP', itemCount: 1, subtotalMinor: 30_000, taxMinor: 0, totalMinor: 30_000 }],
    })
  })
})

describe('what a cancelled order held comes back', () => {
  it('puts a PayPal order’s course, package and plan (with its cycle) back, at the catalogue’s prices', async () => {
    const { user, caller } = await shopper()
    const course = await ownCourse(3_300)
    // A one-off package: a monthly one never shares a checkout with a plan (decision 0136).
    const audit = await servicePackage(db(), 'seo-audit', 'Essential Audit')
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'service_package', packageId: audit.id })
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    expect(started).toMatchObject({ method: 'paypal', totalMinor: 3_300 + 19_900 + 19_999 })
    if (started.method !== 'paypal') throw new Error('expected a PayPal order')
    expect(await cartKeys(user.id)).toEqual([])

    expect(await caller.payments.cancelOrder({ orderId: started.orderId })).toEqual({ id: started.orderId })
    const rows = await db()
      .selectFrom('cart_items')
      .select(['kind', 'course_id', 'service_package_id', 'plan_id', 'billing_cycle'])
      .where('user_id', '=', user.id)
      .orderBy('kind')
      .execute()
    expect(rows).toEqual([
      { kind: 'course', course_id: course.id, service_package_id: null, plan_id: null, billing_cycle: null },
      { kind: 'plan', course_id: null, service_package_id: null, plan_id: 'pro', billing_cycle: 'annual' },
      { kind: 'service_package', course_id: null, service_package_id: audit.id, plan_id: null, billing_cycle: null },
    ])
    const total = 3_300 + 19_900 + 19_999
    expect((await caller.cart.list())?.totals).toEqual([
      {
        currency: 'USD',
        itemCount: 3,
        subtotalMinor: total,
        taxMinor: 0,
        discountMinor: 0,
        totalMinor: total,
        planTrial: { planTitle: 'Pro Plan', planPriceMinor: 19_999, startsWithTrial: true },
      },
    ])
  })

  it('skips a course owned meanwhile and a course deleted from the catalogue; the rest comes back', async () => {
    const { user, caller } = await shopper()
    const owned = await ownCourse(1_100)
    const kept = await ownCourse(2_200)
    const deleted = await ownCourse(3_300)
    for (const course of [owned, kept, deleted]) await caller.cart.add({ kind: 'course', courseId: course.id })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    if (started.method !== 'paypal') throw new Error('expected a PayPal order')
    expect(await cartKeys(user.id)).toEqual([])

    await grant(db(), { userId: user.id, right: { kind: 'course', courseId: owned.id }, source: { kind: 'staff' } })
    await db().deleteFrom('courses').where('id', '=', deleted.id).execute()
    await caller.payments.cancelOrder({ orderId: started.orderId })
    expect(await cartKeys(user.id)).toEqual([`course:${kept.id}`])
  })

  it('keeps what the cart already holds once (a bank-transfer order leaves the cart as it was)', async () => {
    const { user, caller } = await shopper()
    const course = await ownCourse(4_400)
    const audit = await servicePackage(db(), 'seo-audit', 'Essential Audit')
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'service_package', packageId: audit.id })
    const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    if (started.method !== 'bank_transfer') throw new Error('expected a bank-transfer order')
    const before = await db()
      .selectFrom('cart_items')
      .select(['id', 'item_key'])
      .where('user_id', '=', user.id)
      .execute()
    expect(before).toHaveLength(2)

    await caller.payments.cancelOrder({ orderId: started.orderId })
    const after = await db()
      .selectFrom('cart_items')
      .select(['id', 'item_key'])
      .where('user_id', '=', user.id)
      .execute()
    expect(after.sort((a, b) => a.id.localeCompare(b.id))).toEqual(before.sort((a, b) => a.id.localeCompare(b.id)))
  })

  it('keeps the plan the buyer chose after the order: a cancelled order’s other plan does not come back', async () => {
    const { user, caller } = await shopper()
    const course = await ownCourse(5_500)
    await caller.cart.add({ kind: 'course', courseId: course.id })
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    if (started.method !== 'paypal') throw new Error('expected a PayPal order')
    expect(await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })).toEqual({
      kind: 'plan',
      title: 'Pro',
      replaced: null,
    })

    await caller.payments.cancelOrder({ orderId: started.orderId })
    const orderStatus = await db().selectFrom('orders').select('status').where('id', '=', started.orderId).execute()
    expect(orderStatus).toEqual([{ status: 'cancelled' }])
    expect(await cartKeys(user.id)).toEqual([`course:${course.id}`, 'plan:pro'])
    const plan = await db()
      .selectFrom('cart_items')
      .select(['plan_id', 'billing_cycle'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'plan')
      .execute()
    expect(plan).toEqual([{ plan_id: 'pro', billing_cycle: 'annual' }])
  })

  it('a checkout of a changed cart retires the old order without bringing its other plan back', async () => {
    const { user, caller } = await shopper()
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const first = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    if (first.method !== 'bank_transfer') throw new Error('expected a bank-transfer order')
    expect(await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })).toMatchObject({
      replaced: 'Pro (annual) replaced Basic (monthly) in your cart',
    })

    const second = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    if (second.method !== 'bank_transfer') throw new Error('expected a bank-transfer order')
    expect(second.totalMinor).toBe(19_999)
    const orders = await db()
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute()
    expect(orders).toEqual([
      { id: first.orderId, status: 'cancelled' },
      { id: second.orderId, status: 'pending' },
    ])
    expect(await cartKeys(user.id)).toEqual(['plan:pro'])
  })
})
