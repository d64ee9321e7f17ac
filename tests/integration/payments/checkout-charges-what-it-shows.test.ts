// Checkout charges what the buyer was shown (decision 0145). A buyer who reached Stripe's page, came back, removed the
// course and added another was charged for both: the retired order put its lines back into the cart and the new order
// was built from that. Now the cart the buyer sees is the truth at checkout start, the payment page's total is checked
// by the server, a code refused at checkout leaves the cart with the refusal, and removing the last line a code
// covered says the code went with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAYMENT_MESSAGES } from '../../../src-shared/cart.ts'
import { COUPON_REFUSALS, codeRemovedAtCheckout } from '../../../src-shared/promotions.ts'
import { seedBundle } from '../../support/bundles.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt } from '../../support/race.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  fake = shop.fake
})
afterAll(() => shop.close())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
let codeSeq = 0
const newCode = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${codeSeq++}`

async function shopper() {
  const user = await createUser(db())
  return { user, caller: await shopCaller(db(), user, shop.payments) }
}
type Caller = Awaited<ReturnType<typeof shopper>>['caller']

/** Courses of a new creator at these prices (in cents), so every test has its own. */
async function courses(...prices: number[]) {
  const creator = await createUser(db())
  return Promise.all(prices.map((price) => ownedCourse(db(), creator.id, price)))
}

async function staffCode(input: Record<string, unknown>) {
  const code = newCode(String(input.prefix ?? 'SAVE'))
  const editor = await callerAs(db(), await createUser(db(), { role: 'editor' }))
  const { prefix: _prefix, ...rest } = input
  await editor.admin.coupons.create({ kind: 'percent', appliesTo: 'everything', code, ...rest } as never)
  return code
}

/** What the payment page shows for the USD group: the cart's total after its code. */
async function shownTotal(caller: Caller) {
  const cart = await caller.cart.list()
  return cart?.totals.find((total) => total.currency === 'USD')?.totalMinor ?? 0
}

/** Pay by card as the payment page does (with the total it shows); the Stripe session's amount and the order. */
async function payByCard(caller: Caller) {
  const started = await caller.payments.start({
    currency: 'USD',
    method: 'card',
    shownTotalMinor: await shownTotal(caller),
  })
  if (started.method !== 'card') throw new Error(`expected a card checkout, got ${started.method}`)
  const session = fake.sessions.get(sessionIdOf(started.url))!
  return { ...started, charged: session.amount_total, sessionId: session.id }
}

async function orderLines(orderId: string) {
  return db()
    .selectFrom('order_items')
    .select(['course_id', 'bundle_id'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
}

const cartKeys = async (userId: string) =>
  (await db().selectFrom('cart_items').select('item_key').where('user_id', '=', userId).execute())
    .map((row) => row.item_key)
    .sort()

/** The cart line's id for an item key (what the cart page's Remove sends). */
async function lineId(caller: Caller, key: string) {
  const line = (await caller.cart.list())?.items.find((item) => item.key === key)
  if (!line) throw new Error(`${key} is not in the cart`)
  return line.id
}

describe('back from Stripe with a changed cart', () => {
  it('charges only what the cart holds now: the retired order puts nothing back', async () => {
    const [b, c] = await courses(3_000, 1_999)
    const { user, caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: b!.id })
    const first = await payByCard(caller)
    expect(first.charged).toBe(3_000)

    // Back in the shop: B removed ("Your cart is empty"), C added; the cart and the payment page say $19.99.
    await caller.cart.remove({ itemId: await lineId(caller, `course:${b!.id}`) })
    expect((await caller.cart.list())?.items).toHaveLength(0)
    await caller.cart.add({ kind: 'course', courseId: c!.id })
    expect(await shownTotal(caller)).toBe(1_999)

    const second = await payByCard(caller)
    expect(second.orderId).not.toBe(first.orderId)
    expect(second.charged).toBe(1_999)
    expect(second.totalMinor).toBe(1_999)
    expect(await orderLines(second.orderId)).toEqual([{ course_id: c!.id, bundle_id: null }])
    expect(await cartKeys(user.id)).toEqual([`course:${c!.id}`])
    // The old page can no longer take the $30.00.
    expect(fake.sessions.get(first.sessionId)?.status).toBe('expired')
    const stored = await db()
      .selectFrom('orders')
      .select(['id', 'status', 'total_minor'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute()
    expect(stored.map((order) => [order.status, order.total_minor])).toEqual([
      ['cancelled', 3_000],
      ['pending', 1_999],
    ])
  })

  it('a bundle with a code: the order holds each course once and comes to the total shown', async () => {
    const [b, d] = await courses(3_000, 6_000)
    const bundle = await seedBundle(db(), { courseIds: [b!.id, d!.id], priceMinor: 7_900 })
    const code = await staffCode({ percentOff: 10, prefix: 'TEN' })
    const { user, caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: b!.id })
    await payByCard(caller)

    // B alone is removed; the bundle that holds it is added, with 10 % off: $71.10 on the page.
    await caller.cart.remove({ itemId: await lineId(caller, `course:${b!.id}`) })
    await caller.cart.add({ kind: 'bundle', bundleId: bundle.id })
    await caller.cart.applyCoupon({ code })
    expect(await shownTotal(caller)).toBe(7_110)

    const paid = await payByCard(caller)
    expect(paid.charged).toBe(7_110)
    expect(paid.totalMinor).toBe(7_110)
    const lines = await orderLines(paid.orderId)
    expect(lines.map((line) => line.course_id).sort()).toEqual([b!.id, d!.id].sort())
    expect(lines.every((line) => line.bundle_id === bundle.id)).toBe(true)
    expect(await cartKeys(user.id)).toEqual([`bundle:${bundle.id}`])
  })

  it('cancelling the pending card payment leaves the cart as the buyer left it', async () => {
    const [b, c] = await courses(3_000, 1_999)
    const { user, caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: b!.id })
    const first = await payByCard(caller)
    await caller.cart.remove({ itemId: await lineId(caller, `course:${b!.id}`) })
    await caller.cart.add({ kind: 'course', courseId: c!.id })
    // The cart page names the payment in progress (a cart order that Stripe's page may still take).
    expect((await caller.purchases.orders()).find((order) => order.id === first.orderId)).toMatchObject({
      status: 'pending',
      resumable: true,
      fromCart: true,
    })

    await caller.payments.cancelOrder({ orderId: first.orderId })
    expect(await cartKeys(user.id)).toEqual([`course:${c!.id}`])
    expect(fake.sessions.get(first.sessionId)?.status).toBe('expired')
  })
})

describe('the total the payment page showed', () => {
  it('is refused when the cart now comes to another amount, and nothing is ordered', async () => {
    const [b, c] = await courses(3_000, 1_999)
    const { user, caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: b!.id })
    const shown = await shownTotal(caller)
    // Another tab adds a course after the payment page loaded.
    await caller.cart.add({ kind: 'course', courseId: c!.id })
    await expect(
      caller.payments.start({ currency: 'USD', method: 'card', shownTotalMinor: shown }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: PAYMENT_MESSAGES.totalChanged })
    expect(await db().selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toEqual([])

    // The page reloads the cart and shows $49.99: that is what is charged.
    const paid = await payByCard(caller)
    expect(paid.charged).toBe(4_999)
  })

  it('is refused for a pending order that no longer matches, which stays open for its own page', async () => {
    const [b, c] = await courses(3_000, 1_999)
    const { user, caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: b!.id })
    const first = await payByCard(caller)
    await caller.cart.add({ kind: 'course', courseId: c!.id })
    await expect(
      caller.payments.start({ currency: 'USD', method: 'card', shownTotalMinor: 3_000 }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: PAYMENT_MESSAGES.totalChanged })
    // Refused before anything was retired: the first order and its Stripe page are as they were.
    expect(fake.sessions.get(first.sessionId)?.status).toBe('open')
    const orders = await db().selectFrom('orders').select(['id', 'status']).where('user_id', '=', user.id).execute()
    expect(orders).toEqual([{ id: first.orderId, status: 'pending' }])
  })

  it('a free cart is completed when the page showed 0', async () => {
    const [free] = await courses(0)
    const { caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: free!.id })
    const started = await caller.payments.start({ currency: 'USD', method: 'free', shownTotalMinor: 0 })
    expect(started.method).toBe('free')
  })

  it('refuses a total that is not a whole number of cents', async () => {
    const [b] = await courses(3_000)
    const { caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: b!.id })
    for (const shownTotalMinor of [-1, 29.99, Number.NaN]) {
      await expect(caller.payments.start({ currency: 'USD', method: 'card', shownTotalMinor })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      })
    }
  })
})

describe('a code used up while the buyer is on the payment page', () => {
  it('leaves the cart with the refusal, which says so; the next Pay charges the full price', async () => {
    const [course] = await courses(3_000)
    const code = await staffCode({ percentOff: 15, maxUses: 1, prefix: 'LASTONE' })
    const zoe = await shopper()
    await zoe.caller.cart.add({ kind: 'course', courseId: course!.id })
    await zoe.caller.cart.applyCoupon({ code })
    const shown = await shownTotal(zoe.caller)
    expect(shown).toBe(2_550)

    // Another buyer takes the code's last use.
    const other = await shopper()
    await other.caller.cart.add({ kind: 'course', courseId: course!.id })
    await other.caller.cart.applyCoupon({ code })
    await other.caller.payments.start({ currency: 'USD', method: 'bank_transfer' })

    await expect(
      zoe.caller.payments.start({ currency: 'USD', method: 'card', shownTotalMinor: shown }),
    ).rejects.toMatchObject({ message: codeRemovedAtCheckout(COUPON_REFUSALS.usedUp, code) })
    const cart = await zoe.caller.cart.list()
    expect(cart?.coupon).toBeNull()
    expect(cart?.totals[0]).toMatchObject({ discountMinor: 0, totalMinor: 3_000 })

    // The page reloaded the cart: Pay $30.00 works, and charges $30.00.
    const paid = await payByCard(zoe.caller)
    expect(paid.charged).toBe(3_000)
    // The other buyer's use stands; the code was not used twice.
    const uses = await db()
      .selectFrom('coupon_redemptions as r')
      .innerJoin('coupons as c', 'c.id', 'r.coupon_id')
      .select('r.order_id')
      .where('c.code', '=', code)
      .execute()
    expect(uses).toHaveLength(1)
  })
})

describe('two buyers pay with the last use of a code at the same time', () => {
  // The loser is refused under the coupon's row lock (reserveUse), after its quote saw a use left.
  raceIt('one gets the discount; the other is told the code was removed, and pays the full price next', async () => {
    const [course] = await courses(3_000)
    const code = await staffCode({ percentOff: 15, maxUses: 1, prefix: 'LASTONE' })
    const buyers = [await shopper(), await shopper()]
    for (const buyer of buyers) {
      await buyer.caller.cart.add({ kind: 'course', courseId: course!.id })
      await buyer.caller.cart.applyCoupon({ code })
    }
    const results = await Promise.allSettled(
      buyers.map((buyer) => buyer.caller.payments.start({ currency: 'USD', method: 'card', shownTotalMinor: 2_550 })),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const loser = results.findIndex((result) => result.status === 'rejected')
    expect((results[loser] as PromiseRejectedResult).reason).toMatchObject({
      message: codeRemovedAtCheckout(COUPON_REFUSALS.usedUp, code),
    })
    expect((await buyers[loser]!.caller.cart.list())?.coupon).toBeNull()
    expect((await payByCard(buyers[loser]!.caller)).charged).toBe(3_000)
  })
})

describe('removing the last line a code covered', () => {
  it('answers with the code that went with it; a line the code still covers keeps it', async () => {
    const [covered, other] = await courses(3_000, 2_000)
    const code = await staffCode({ percentOff: 10, appliesTo: 'courses', courseIds: [covered!.id], prefix: 'ONE' })
    const { caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: covered!.id })
    await caller.cart.add({ kind: 'course', courseId: other!.id })
    await caller.cart.applyCoupon({ code })

    expect(await caller.cart.remove({ itemId: await lineId(caller, `course:${other!.id}`) })).toEqual({
      removed: true,
      droppedCode: null,
    })
    expect((await caller.cart.list())?.coupon?.code).toBe(code)
    expect(await caller.cart.remove({ itemId: await lineId(caller, `course:${covered!.id}`) })).toEqual({
      removed: true,
      droppedCode: code,
    })
    expect((await caller.cart.list())?.coupon).toBeNull()
  })
})
