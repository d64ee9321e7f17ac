// orders/: the one table of allowed status changes, and the functions that apply them on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OrderStatus } from '../../../db/types.ts'
import { awaitTransfer, cancelByBuyer, createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { cancel, expire, markFailed } from '../../../src-server/orders/pending.ts'
import { createRenewalOrder } from '../../../src-server/orders/renewal.ts'
import { canTransition, ORDER_TRANSITIONS, type OrderTransition } from '../../../src-server/orders/transitions.ts'
import { ORDER_STATUSES } from '../../../src-shared/admin.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { raceIt } from '../../support/race.ts'
import { publishedCourse, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

const STATUSES: readonly OrderStatus[] = ORDER_STATUSES

async function pendingOrder(method: 'card' | 'paypal' | 'bank_transfer' = 'card', offset = 0) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user)
  await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), offset)).id })
  const order = await createFromCart(db(), { userId: user.id, currency: 'USD', method, referencePrefix: 'SF' })
  return { user, orderId: order.id }
}
const statusOf = async (id: string) =>
  (await db().selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

describe('the transition table', () => {
  it('lets only refunds and disputes leave paid, and lets only Stripe pay a cancelled order', () => {
    const leavesPaid = (Object.keys(ORDER_TRANSITIONS) as OrderTransition[]).filter((t) => canTransition('paid', t))
    expect(leavesPaid).toEqual(['refundPartly', 'refundFully', 'dispute'])
    expect(canTransition('cancelled', 'payByStripe')).toBe(true)
    expect(canTransition('cancelled', 'payByStaff')).toBe(false)
    const allowed = (transition: OrderTransition) => STATUSES.filter((status) => canTransition(status, transition))
    expect(allowed('fail')).toEqual(['pending'])
    expect(allowed('awaitTransfer')).toEqual(['pending'])
    expect(allowed('cancel')).toEqual(['pending', 'awaiting_transfer', 'failed'])
    expect(allowed('expire')).toEqual(['pending'])
    expect(allowed('cancelByBuyer')).toEqual(['pending'])
    expect(allowed('payByStripe')).toEqual(['pending', 'awaiting_transfer', 'failed', 'cancelled', 'expired'])
    expect(allowed('refundPartly')).toEqual(['paid', 'partially_refunded'])
    expect(allowed('refundFully')).toEqual(['paid', 'partially_refunded', 'disputed'])
    expect(allowed('dispute')).toEqual(['paid', 'partially_refunded'])
    expect(allowed('winDispute')).toEqual(['disputed'])
  })
})

describe('order transitions on the database', () => {
  it('never marks a paid order failed, whoever asks', async () => {
    const { orderId } = await pendingOrder('card', 0)
    expect(await markPaid(db(), orderId, { source: 'stripe' })).toBe('fulfilled')
    expect(await markFailed(db(), orderId)).toBe(false)
    expect(await statusOf(orderId)).toBe('paid')
    await expect(cancel(db(), orderId, (await createUser(db(), { role: 'admin' })).id)).rejects.toMatchObject({
      kind: 'invalid',
      message: 'A paid order cannot be cancelled',
    })
  })

  raceIt('fulfils once when ten payments of one order race', async () => {
    const { user, orderId } = await pendingOrder('paypal', 1)
    const results = await Promise.all(Array.from({ length: 10 }, () => markPaid(db(), orderId, { source: 'staff' })))
    expect(results.filter((result) => result === 'fulfilled')).toHaveLength(1)
    expect(results.filter((result) => result === 'already_paid')).toHaveLength(9)
    const enrolments = await db()
      .selectFrom('access_grants')
      .where('kind', '=', 'course')
      .select('course_id')
      .where('user_id', '=', user.id)
      .execute()
    expect(enrolments).toHaveLength(1)
  })

  it("'I've Made the Transfer' applies only to the buyer's own bank-transfer order", async () => {
    const card = await pendingOrder('card', 2)
    await expect(awaitTransfer(db(), card.user.id, card.orderId)).rejects.toMatchObject({ kind: 'not_found' })
    const bank = await pendingOrder('bank_transfer', 3)
    const stranger = await createUser(db())
    await expect(awaitTransfer(db(), stranger.id, bank.orderId)).rejects.toMatchObject({ kind: 'not_found' })
    expect(await awaitTransfer(db(), bank.user.id, bank.orderId)).toMatchObject({ status: 'awaiting_transfer' })
    // Asked again, it reports the state it is in and changes nothing.
    expect(await awaitTransfer(db(), bank.user.id, bank.orderId)).toMatchObject({ status: 'awaiting_transfer' })
    expect(await statusOf(bank.orderId)).toBe('awaiting_transfer')
  })

  it('a failed card order is still paid when Stripe later takes the money', async () => {
    const { orderId } = await pendingOrder('card', 4)
    expect(await markFailed(db(), orderId)).toBe(true)
    expect(await markPaid(db(), orderId, { source: 'staff' })).toBe('fulfilled')
    expect(await statusOf(orderId)).toBe('paid')
  })
})

// The checks the routers make first are made again here, under the row lock: an order can be paid between the two.
describe('the buyer cancels, and a checkout expires, under the lock', () => {
  const cartKeys = async (userId: string) =>
    (
      await db().selectFrom('cart_items').select('item_key').where('user_id', '=', userId).orderBy('item_key').execute()
    ).map((row) => row.item_key)
  const orderRow = (id: string) =>
    db()
      .selectFrom('orders')
      .select(['status', 'cancelled_at', 'expired_at', 'status_changed_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  it('cancels the buyer’s own PayPal order, records who and when, and puts its lines back in the cart', async () => {
    const { user, orderId } = await pendingOrder('paypal', 20)
    const lines = await db().selectFrom('order_items').select('item_key').where('order_id', '=', orderId).execute()
    // PayPal took the lines out of the cart when the order was made.
    expect(await cartKeys(user.id)).toEqual([])
    const before = Date.now()
    await cancelByBuyer(db(), user.id, orderId)
    const row = await orderRow(orderId)
    expect(row).toMatchObject({ status: 'cancelled', status_changed_by: user.id })
    expect(row.cancelled_at!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(await cartKeys(user.id)).toEqual(lines.map((line) => line.item_key))
  })

  it('cancels a card order and leaves the cart as the buyer left it (a line removed since stays out)', async () => {
    const { user, orderId } = await pendingOrder('card', 23)
    await db().deleteFrom('cart_items').where('user_id', '=', user.id).execute()
    await cancelByBuyer(db(), user.id, orderId)
    expect(await orderRow(orderId)).toMatchObject({ status: 'cancelled', status_changed_by: user.id })
    expect(await cartKeys(user.id)).toEqual([])
  })

  it('does not find another buyer’s order', async () => {
    const { orderId } = await pendingOrder('card', 21)
    const stranger = await createUser(db())
    await expect(cancelByBuyer(db(), stranger.id, orderId)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'Order not found',
    })
    expect(await statusOf(orderId)).toBe('pending')
  })

  it('leaves an order already cancelled as it was', async () => {
    const { user, orderId } = await pendingOrder('card', 22)
    await cancelByBuyer(db(), user.id, orderId)
    const first = await orderRow(orderId)
    await db().deleteFrom('cart_items').where('user_id', '=', user.id).execute()
    await expect(cancelByBuyer(db(), user.id, orderId)).resolves.toBeUndefined()
    expect(await orderRow(orderId)).toEqual(first)
    expect(await cartKeys(user.id)).toEqual([])
  })

  it('refuses an order paid meanwhile, and keeps it paid', async () => {
    const { user, orderId } = await pendingOrder('card', 23)
    await markPaid(db(), orderId, { source: 'stripe' })
    await expect(cancelByBuyer(db(), user.id, orderId)).rejects.toMatchObject({
      kind: 'invalid',
      message: 'Only a pending order can be cancelled',
    })
    expect(await statusOf(orderId)).toBe('paid')
  })

  it('puts nothing in the cart for a renewal order, which never came from it', async () => {
    const user = await createUser(db())
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
    await cancelByBuyer(db(), user.id, renewal.id)
    expect(await statusOf(renewal.id)).toBe('cancelled')
    expect(await cartKeys(user.id)).toEqual([])
  })

  it('expires a pending card order with the time it expired, and never a paid one', async () => {
    const { orderId } = await pendingOrder('card', 24)
    const before = Date.now()
    expect(await expire(db(), orderId)).toBe(true)
    const row = await orderRow(orderId)
    expect(row.status).toBe('expired')
    expect(row.expired_at!.getTime()).toBeGreaterThanOrEqual(before - 1000)

    const paid = await pendingOrder('card', 25)
    await markPaid(db(), paid.orderId, { source: 'stripe' })
    expect(await expire(db(), paid.orderId)).toBe(false)
    expect(await orderRow(paid.orderId)).toMatchObject({ status: 'paid', expired_at: null })
  })
})
