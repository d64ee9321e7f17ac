// Money and state rules of paying and retiring an order that the webhook tests let go (found by mutation testing,
// issue 19): the tax Stripe charged becomes the order's tax and total, and the receipt's total, only when there was
// tax; the payment's Stripe ids stay on the order; a paid order (even refunded or disputed) is never paid or
// cancelled again; staff's cancel and checkout's replacement of a pending order record when and who; a replaced
// PayPal order gives its lines back to the cart once, a card order leaves the cart as it is (decision 0145).
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OrderStatus } from '../../../db/types.ts'
import { replacePendingOrder } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { cancelByStaff, confirmPaymentByStaff } from '../../../src-server/flows/staff-order-actions.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { cancel, ORDER_NOT_FOUND } from '../../../src-server/orders/pending.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { publishedCourse } from '../../support/shop.ts'

let database: DatabaseHandle
let admin: TestUser
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
  admin = await createUser(db(), { role: 'admin', email: 'money-admin@example.test' })
})
afterAll(() => database.close())

let counter = 0
/** A buyer's order for one course at $49.99 (4999), written straight into the tables. */
async function buyerOrder(status: OrderStatus = 'pending', method: 'card' | 'bank_transfer' | 'paypal' = 'card') {
  counter += 1
  const user = await createUser(db(), { firstName: 'Ada' })
  const course = await publishedCourse(db(), counter % 5)
  const reference = `SF-MONEY-${counter}`
  const id = await placeOrder(db(), { userId: user.id, courseId: course.id, reference, status, method })
  return { user, course, reference, id }
}

const orderRow = (id: string) =>
  db()
    .selectFrom('orders')
    .select([
      'status',
      'captured_minor',
      'tax_minor',
      'total_minor',
      'tax_lines',
      'stripe_subscription_id',
      'stripe_payment_intent_id',
      'cancelled_at',
      'status_changed_by',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

const receiptOf = async (user: TestUser) =>
  (
    await db()
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', user.email)
      .where('kind', '=', 'order_paid')
      .execute()
  ).map((mail) => mail.text_body)

const cartKeys = async (userId: string) =>
  (await db().selectFrom('cart_items').select('item_key').where('user_id', '=', userId).execute()).map(
    (item) => item.item_key,
  )

const taxLines = [
  { name: 'California State Tax 7.25%', amountMinor: 326 },
  { name: 'City Tax — San Francisco 2.75%', amountMinor: 124 },
]

describe('a card payment with Stripe Tax', () => {
  it('records the tax, its lines and the captured amount as the total; the receipt shows that total', async () => {
    const { user, reference, id } = await buyerOrder()
    expect(
      await markPaid(db(), id, {
        source: 'stripe',
        capturedMinor: 5449,
        taxMinor: 450,
        taxLines,
        stripePaymentIntentId: 'pi_tax_1',
      }),
    ).toBe('fulfilled')
    expect(await orderRow(id)).toMatchObject({
      status: 'paid',
      captured_minor: 5449,
      tax_minor: 450,
      total_minor: 5449,
      tax_lines: taxLines,
      stripe_payment_intent_id: 'pi_tax_1',
    })
    expect(await receiptOf(user)).toEqual([
      `Hi Ada,\n\nWe have received your payment of $54.49 for order ${reference}:\n- A course\n\nThank you!`,
    ])
  })

  it('tax without a per-jurisdiction breakdown: tax and total recorded, no tax lines', async () => {
    const { id } = await buyerOrder()
    expect(await markPaid(db(), id, { source: 'stripe', capturedMinor: 5449, taxMinor: 450 })).toBe('fulfilled')
    expect(await orderRow(id)).toMatchObject({ captured_minor: 5449, tax_minor: 450, total_minor: 5449, tax_lines: [] })
  })

  it('no tax charged: the total, tax and tax lines stay as ordered and the receipt shows the order total', async () => {
    const { user, reference, id } = await buyerOrder()
    // Whatever Stripe says it took and however it broke down a zero tax, an untaxed order keeps its own total.
    expect(await markPaid(db(), id, { source: 'stripe', capturedMinor: 5000, taxMinor: 0, taxLines })).toBe('fulfilled')
    expect(await orderRow(id)).toMatchObject({ captured_minor: 5000, tax_minor: 0, total_minor: 4999, tax_lines: [] })
    expect(await receiptOf(user)).toEqual([
      `Hi Ada,\n\nWe have received your payment of $49.99 for order ${reference}:\n- A course\n\nThank you!`,
    ])
  })

  it('keeps the subscription and payment intent of the payment on the order', async () => {
    const { id } = await buyerOrder()
    expect(
      await markPaid(db(), id, {
        source: 'stripe',
        stripeSubscriptionId: 'sub_money_1',
        stripePaymentIntentId: 'pi_money_1',
      }),
    ).toBe('fulfilled')
    expect(await orderRow(id)).toMatchObject({
      stripe_subscription_id: 'sub_money_1',
      stripe_payment_intent_id: 'pi_money_1',
      captured_minor: 4999,
      total_minor: 4999,
    })
  })
})

describe('an order money was taken for', () => {
  it.each(['partially_refunded', 'refunded', 'disputed'] as const)(
    '%s: is already paid, and cannot be cancelled',
    async (status) => {
      const { id } = await buyerOrder(status)
      expect(await markPaid(db(), id, { source: 'stripe' })).toBe('already_paid')
      await expect(cancel(db(), id, admin.id)).rejects.toMatchObject({
        kind: 'invalid',
        message: 'A paid order cannot be cancelled',
      })
      expect((await orderRow(id)).status).toBe(status)
    },
  )
})

describe('staff confirming a card order', () => {
  it('is refused: Stripe confirms card payments', async () => {
    const { id } = await buyerOrder('pending', 'card')
    await expect(confirmPaymentByStaff(db(), id, admin)).rejects.toMatchObject({
      kind: 'invalid',
      message: 'Card payments are confirmed by Stripe, not by staff',
    })
    expect((await orderRow(id)).status).toBe('pending')
  })
})

describe("staff's cancel", () => {
  it('of an unknown order is not found', async () => {
    await expect(cancel(db(), randomUUID(), admin.id)).rejects.toMatchObject({
      kind: 'not_found',
      message: ORDER_NOT_FOUND,
    })
  })

  it('records when and by whom; an order already cancelled is left as it was', async () => {
    const { id } = await buyerOrder('awaiting_transfer', 'bank_transfer')
    const before = Date.now()
    await cancelByStaff(db(), id, admin)
    const cancelled = await orderRow(id)
    expect(cancelled).toMatchObject({ status: 'cancelled', status_changed_by: admin.id })
    expect(cancelled.cancelled_at?.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(await cancel(db(), id, randomUUID())).toBe(false)
    expect(await orderRow(id)).toEqual(cancelled)
  })
})

describe("checkout replacing the cart's pending order", () => {
  it('cancels the pending card order (when recorded) and leaves the cart as the buyer left it', async () => {
    // The line is not in the cart: the buyer removed it after reaching Stripe's page (decision 0145).
    const { user, id } = await buyerOrder('pending')
    const before = Date.now()
    expect(await replacePendingOrder(db(), id)).toBe(true)
    const replaced = await orderRow(id)
    expect(replaced.status).toBe('cancelled')
    expect(replaced.cancelled_at?.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(await cartKeys(user.id)).toEqual([])
    expect(await replacePendingOrder(db(), id)).toBe(false)
    expect(await cartKeys(user.id)).toEqual([])
  })

  it('gives a PayPal order’s lines (which it took out of the cart) back once', async () => {
    const { user, course, id } = await buyerOrder('pending', 'paypal')
    expect(await replacePendingOrder(db(), id)).toBe(true)
    expect(await cartKeys(user.id)).toEqual([`course:${course.id}`])
    expect(await replacePendingOrder(db(), id)).toBe(false)
    expect(await cartKeys(user.id)).toEqual([`course:${course.id}`])
  })

  it('leaves an order that is not pending alone (nor an unknown one)', async () => {
    const { user, id } = await buyerOrder('awaiting_transfer', 'bank_transfer')
    expect(await replacePendingOrder(db(), id)).toBe(false)
    expect(await orderRow(id)).toMatchObject({ status: 'awaiting_transfer', cancelled_at: null })
    expect(await cartKeys(user.id)).toEqual([])
    expect(await replacePendingOrder(db(), randomUUID())).toBe(false)
  })
})
