// No orphan orders: one pending order per cart whatever the rail, Resume payment and Cancel from /account, the 24 h
// expiry of card checkouts (Stripe session expired through the API) and checkout.session.expired; PayPal orders
// empty the cart and give it back when cancelled; bank-transfer details are e-mailed and stay on the order.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expireAbandonedCheckouts } from '../../../src-server/flows/abandoned-checkouts.ts'
import { cancelByBuyer } from '../../../src-server/flows/cart-order.ts'
import { createRenewalOrder } from '../../../src-server/orders/renewal.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt, whileHeld } from '../../support/race.ts'
import { publishedCourse, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
})
afterAll(() => shop.close())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const ordersOf = (userId: string) =>
  db()
    .selectFrom('orders')
    .select(['id', 'status', 'method', 'stripe_session_id'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
const cartKeys = async (userId: string) =>
  (await db().selectFrom('cart_items').select('item_key').where('user_id', '=', userId).execute())
    .map((row) => row.item_key)
    .sort()

async function shopperWithCourses(...offsets: number[]) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, payments)
  const courses = []
  for (const offset of offsets) {
    const course = await publishedCourse(db(), offset)
    await caller.cart.add({ kind: 'course', courseId: course.id })
    courses.push(course)
  }
  return { user, caller, courses }
}

describe('one pending order per cart', () => {
  it('reuses the pending card order and its open Stripe session when checkout starts again', async () => {
    const { user, caller } = await shopperWithCourses(0)
    const first = await caller.payments.start({ currency: 'USD', method: 'card' })
    const again = await caller.payments.start({ currency: 'USD', method: 'card' })
    expect(again).toMatchObject({ orderId: first.orderId, reused: true })
    expect(again.method === 'card' && first.method === 'card' && again.url === first.url).toBe(true)
    expect(await ordersOf(user.id)).toHaveLength(1)
    expect(fake.sessions.size).toBeGreaterThan(0)
  })

  raceIt('keeps one pending order when ten checkouts of the same cart race', async () => {
    const { user, caller } = await shopperWithCourses(1)
    const started = await Promise.allSettled(
      Array.from({ length: 10 }, () => caller.payments.start({ currency: 'USD', method: 'bank_transfer' })),
    )
    const ids = new Set(started.flatMap((result) => (result.status === 'fulfilled' ? [result.value.orderId] : [])))
    expect(ids.size).toBe(1)
    const orders = await ordersOf(user.id)
    expect(orders.filter((order) => order.status === 'pending')).toHaveLength(1)
  })

  // What the pending-order lock guards (the unique index decides the race above): a checkout that would reuse the
  // pending order while the buyer's cancel of it (another tab) is not yet committed. With the lock it waits and then
  // finds the order no longer pending; without it, it would hand back bank details for the cancelled order.
  raceIt('a checkout racing the cancel of the pending order it would reuse gets a new order', async () => {
    const { user, caller, courses } = await shopperWithCourses(15)
    const first = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    const again = await whileHeld(
      db(),
      (trx) => cancelByBuyer(trx, user.id, first.orderId),
      () => caller.payments.start({ currency: 'USD', method: 'bank_transfer' }),
      { waiters: 1 },
    )
    const handedBack = await db()
      .selectFrom('orders')
      .select('status')
      .where('id', '=', again.orderId)
      .executeTakeFirst()
    expect({ reused: again.reused, status: handedBack?.status }).toEqual({ reused: false, status: 'pending' })
    expect(again.orderId).not.toBe(first.orderId)
    const orders = await ordersOf(user.id)
    expect(orders.map((order) => [order.id, order.status])).toEqual([
      [first.orderId, 'cancelled'],
      [again.orderId, 'pending'],
    ])
    const lines = await db()
      .selectFrom('order_items')
      .select('item_key')
      .where('order_id', '=', again.orderId)
      .execute()
    expect(lines).toEqual([{ item_key: `course:${courses[0]!.id}` }])
  })

  it('switching rail retires the old order (its Stripe session expired through the API) for a new one', async () => {
    const { user, caller, courses } = await shopperWithCourses(2)
    const card = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (card.method !== 'card') throw new Error('expected card')
    const bank = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    expect(bank.orderId).not.toBe(card.orderId)
    expect(fake.expiredThroughApi).toContain(sessionIdOf(card.url))
    expect(fake.sessions.get(sessionIdOf(card.url))?.status).toBe('expired')
    const orders = await ordersOf(user.id)
    expect(orders.map((order) => [order.method, order.status])).toEqual([
      ['card', 'cancelled'],
      ['bank_transfer', 'pending'],
    ])
    expect(await cartKeys(user.id)).toEqual([`course:${courses[0]!.id}`])
  })

  it('a changed cart replaces the pending order with one holding the new lines', async () => {
    const { user, caller } = await shopperWithCourses(3)
    const first = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), 4)).id })
    const second = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    expect(second.orderId).not.toBe(first.orderId)
    const lines = await db()
      .selectFrom('order_items')
      .select('item_key')
      .where('order_id', '=', second.orderId)
      .execute()
    expect(lines).toHaveLength(2)
    expect((await ordersOf(user.id)).map((order) => order.status)).toEqual(['cancelled', 'pending'])
  })

  it('a membership renewal order stands beside the cart’s pending order and is never retired by checkout', async () => {
    const { user, caller } = await shopperWithCourses(14)
    const renewal = await createRenewalOrder(db(), {
      userId: user.id,
      planId: 'pro',
      planName: 'Pro Plan',
      billingCycle: 'monthly',
      method: 'bank_transfer',
      priceMinor: 2999,
      currency: 'USD',
      referencePrefix: 'SF',
    })
    const first = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await caller.payments.start({ currency: 'USD', method: 'card' })
    const statuses = Object.fromEntries((await ordersOf(user.id)).map((order) => [order.id, order.status]))
    expect(statuses[renewal.id]).toBe('pending')
    expect(statuses[first.orderId]).toBe('cancelled')
  })
})

describe('PayPal', () => {
  it('empties the cart when the order is created, gives the same order on a second click, restores the cart on cancel', async () => {
    const { user, caller, courses } = await shopperWithCourses(5)
    const first = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    expect(await cartKeys(user.id)).toEqual([])
    const again = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    expect(again).toMatchObject({ orderId: first.orderId, reference: first.reference, reused: true })
    expect(await ordersOf(user.id)).toHaveLength(1)

    const history = await caller.purchases.orders()
    expect(history[0]).toMatchObject({ reference: first.reference, status: 'pending' })
    expect(history[0]?.paypalUrl).toMatch(/^https:\/\/paypal\.me\/skillforge\/\d+\.\d{2}USD$/)

    // Another checkout of the same currency waits for the PayPal order.
    await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), 6)).id })
    await expect(caller.payments.start({ currency: 'USD', method: 'card' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('PayPal order'),
    })
    await caller.payments.cancelOrder({ orderId: first.orderId })
    expect((await ordersOf(user.id))[0]?.status).toBe('cancelled')
    expect(await cartKeys(user.id)).toEqual(
      [`course:${courses[0]!.id}`, `course:${(await publishedCourse(db(), 6)).id}`].sort(),
    )
  })
})

describe('bank transfer', () => {
  it('e-mails the details and reference once, and keeps them on the order until it is paid', async () => {
    const { user, caller } = await shopperWithCourses(7)
    const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    const mails = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', user.email)
      .where('kind', '=', 'bank_transfer_details')
      .execute()
    expect(mails).toHaveLength(1)
    expect(mails[0]?.text_body).toContain(`Payment Reference: ${started.reference}`)
    expect(mails[0]?.text_body).toContain('Routing Number: 026009593')

    await caller.payments.confirmBankTransfer({ orderId: started.orderId })
    let [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ status: 'awaiting_transfer', bank: { accountNumber: '12345678' } })
    const admin = await createUser(db(), { role: 'admin' })
    const staff = await shopCaller(db(), admin, payments)
    await staff.admin.orders.markPaid({ id: started.orderId })
    ;[order] = await caller.purchases.orders()
    expect(order).toMatchObject({ status: 'paid', bank: null })
  })
})

describe('abandoned card checkouts', () => {
  it('Resume payment returns the open Stripe page; Cancel expires the session and gives the cart back', async () => {
    const { user, caller, courses } = await shopperWithCourses(8)
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const [listed] = await caller.purchases.orders()
    expect(listed).toMatchObject({ id: started.orderId, resumable: true })
    expect(await caller.payments.resume({ orderId: started.orderId })).toEqual({ url: started.url })

    const stranger = await shopCaller(db(), await createUser(db()), payments)
    await expect(stranger.payments.resume({ orderId: started.orderId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(stranger.payments.cancelOrder({ orderId: started.orderId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })

    await caller.payments.cancelOrder({ orderId: started.orderId })
    expect(fake.sessions.get(sessionIdOf(started.url))?.status).toBe('expired')
    expect((await ordersOf(user.id))[0]?.status).toBe('cancelled')
    expect(await cartKeys(user.id)).toEqual([`course:${courses[0]!.id}`])
    await expect(caller.payments.resume({ orderId: started.orderId })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('cancelling a session that was paid meanwhile pays the order instead', async () => {
    const { user, caller } = await shopperWithCourses(9)
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    fake.completeSession(sessionIdOf(started.url))
    await expect(caller.payments.cancelOrder({ orderId: started.orderId })).rejects.toMatchObject({ code: 'CONFLICT' })
    expect((await ordersOf(user.id))[0]?.status).toBe('paid')
  })

  it('staff Cancel closes the Stripe session first: the old page can no longer take money for a cancelled order', async () => {
    const { user, caller } = await shopperWithCourses(12)
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const staff = await shopCaller(db(), await createUser(db(), { role: 'admin' }), payments)
    await staff.admin.orders.cancel({ id: started.orderId })
    expect(fake.sessions.get(sessionIdOf(started.url))?.status).toBe('expired')
    expect((await ordersOf(user.id))[0]?.status).toBe('cancelled')
  })

  it('staff Cancel of a card order paid at Stripe meanwhile pays it instead and refuses the cancel', async () => {
    const { user, caller } = await shopperWithCourses(13)
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    fake.completeSession(sessionIdOf(started.url))
    const staff = await shopCaller(db(), await createUser(db(), { role: 'admin' }), payments)
    await expect(staff.admin.orders.cancel({ id: started.orderId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This order has already been paid',
    })
    expect((await ordersOf(user.id))[0]?.status).toBe('paid')
  })

  it('expires card orders pending for 24 hours (the Stripe session too), and leaves younger ones', async () => {
    const old = await shopperWithCourses(10)
    const young = await shopperWithCourses(11)
    const oldStart = await old.caller.payments.start({ currency: 'USD', method: 'card' })
    const youngStart = await young.caller.payments.start({ currency: 'USD', method: 'card' })
    if (oldStart.method !== 'card') throw new Error('expected card')
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000)
    await sql`update orders set created_at = ${dayAgo} where id = ${oldStart.orderId}`.execute(db())

    expect(await expireAbandonedCheckouts({ db: db(), stripe: payments.stripe })).toBe(1)
    expect((await ordersOf(old.user.id))[0]?.status).toBe('expired')
    expect(fake.sessions.get(sessionIdOf(oldStart.url))?.status).toBe('expired')
    expect((await ordersOf(young.user.id))[0]).toMatchObject({ id: youngStart.orderId, status: 'pending' })
    // Run again: nothing more to do.
    expect(await expireAbandonedCheckouts({ db: db(), stripe: payments.stripe })).toBe(0)
    // The cart still holds the course: starting again opens a fresh order.
    const fresh = await old.caller.payments.start({ currency: 'USD', method: 'card' })
    expect(fresh.orderId).not.toBe(oldStart.orderId)
  })

  it('checkout.session.expired expires the pending order, and a redelivery changes nothing', async () => {
    const { user, caller } = await shopperWithCourses(12)
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const session = { ...fake.sessions.get(sessionIdOf(started.url))!, status: 'expired' }
    expect(await fake.deliver('checkout.session.expired', session)).toBe(200)
    expect(await fake.deliver('checkout.session.expired', session)).toBe(200)
    expect((await ordersOf(user.id))[0]?.status).toBe('expired')
    // An expired session no longer resumes; the cart starts a new order instead.
    await expect(caller.payments.resume({ orderId: started.orderId })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('starting checkout again after Stripe closed the session opens a fresh order', async () => {
    const { user, caller } = await shopperWithCourses(13)
    const first = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (first.method !== 'card') throw new Error('expected card')
    fake.sessions.get(sessionIdOf(first.url))!.status = 'expired'
    const second = await caller.payments.start({ currency: 'USD', method: 'card' })
    expect(second.orderId).not.toBe(first.orderId)
    expect((await ordersOf(user.id)).map((order) => order.status)).toEqual(['expired', 'pending'])
  })
})
