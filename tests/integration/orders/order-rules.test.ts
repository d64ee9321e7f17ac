// Order rules outside the webhook that every other test let go (found by mutation testing, issue 19): 'I've Made
// the Transfer' moves only a pending bank-transfer order, a plan staff confirm lasts its own billing period, the
// audit record of staff's mark-paid and cancel is exact, and the order history shows each order's own lines.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { cancelByStaff, confirmPaymentByStaff } from '../../../src-server/flows/staff-order-actions.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { defaultPayments, type PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { pricedCourses, publishedCourse, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
let admin: TestUser
const db = () => database.db
const payments: PaymentsConfig = { ...defaultPayments, paypalMeUrl: 'https://paypal.me/skillforge' }

beforeAll(async () => {
  database = await createTestDatabase()
  admin = await createUser(db(), { role: 'admin', email: 'rules-admin@example.test' })
})
afterAll(() => database.close())

const statusOf = async (orderId: string) =>
  (await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status

/** A buyer who started checkout for one course on `method`. */
async function startedOrder(method: 'bank_transfer' | 'paypal', offset: number) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, payments)
  await caller.cart.add({ kind: 'course', courseId: (await publishedCourse(db(), offset)).id })
  const started = await caller.payments.start({ currency: 'USD', method })
  return { user, caller, orderId: started.orderId }
}

describe("'I've Made the Transfer'", () => {
  it('cannot reopen a paid bank-transfer order', async () => {
    const { caller, orderId } = await startedOrder('bank_transfer', 0)
    expect(await confirmPaymentByStaff(db(), orderId, admin)).toBe('fulfilled')
    expect(await caller.payments.confirmBankTransfer({ orderId })).toMatchObject({ status: 'paid' })
    expect(await statusOf(orderId)).toBe('paid')
  })

  it('cannot reopen a cancelled bank-transfer order', async () => {
    const { caller, orderId } = await startedOrder('bank_transfer', 1)
    await cancelByStaff(db(), orderId, admin)
    expect(await caller.payments.confirmBankTransfer({ orderId })).toMatchObject({ status: 'cancelled' })
    expect(await statusOf(orderId)).toBe('cancelled')
  })

  it('cannot turn a PayPal order into a bank transfer', async () => {
    const { caller, orderId } = await startedOrder('paypal', 2)
    await expect(caller.payments.confirmBankTransfer({ orderId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Order not found',
    })
    const order = await db()
      .selectFrom('orders')
      .select(['status', 'method'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({ status: 'pending', method: 'paypal' })
  })
})

describe('staff confirming a plan', () => {
  it('a monthly plan gives a month of Premium, not a year', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    const before = Date.now()
    expect(await confirmPaymentByStaff(db(), started.orderId, admin)).toBe('fulfilled')
    const entitlements = await caller.purchases.entitlements()
    expect(entitlements).toMatchObject({
      isPremium: true,
      plan: { id: 'basic', billingCycle: 'monthly', status: 'active' },
    })
    const days = (Date.parse(entitlements.renewsAt!) - before) / 86_400_000
    expect(days).toBeGreaterThanOrEqual(28)
    expect(days).toBeLessThanOrEqual(31.01)
  })
})

describe("the audit record of staff's order actions", () => {
  let counter = 0
  async function customerOrder(status: 'pending' | 'awaiting_transfer') {
    counter += 1
    const customer = await createUser(db())
    const reference = `SF-AUDIT-${counter}`
    const id = await placeOrder(db(), {
      userId: customer.id,
      courseId: (await publishedCourse(db(), 3)).id,
      reference,
      method: 'bank_transfer',
      status,
    })
    return { id, reference }
  }
  const auditOf = (entityId: string) =>
    db()
      .selectFrom('audit_log')
      .select(['actor_id', 'actor_email', 'action', 'entity_type', 'entity_id', 'before', 'after'])
      .where('entity_id', '=', entityId)
      .execute()

  it('mark paid: who, which order, and its status before and after', async () => {
    const { id, reference } = await customerOrder('awaiting_transfer')
    const caller = await callerAs(db(), admin)
    expect(await caller.admin.orders.markPaid({ id })).toEqual({ id, result: 'fulfilled' })
    const order = await db()
      .selectFrom('orders')
      .select(['status', 'status_changed_by', 'captured_minor', 'tax_minor', 'total_minor'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({
      status: 'paid',
      status_changed_by: admin.id,
      captured_minor: 4999,
      tax_minor: 0,
      total_minor: 4999,
    })
    expect(await auditOf(id)).toEqual([
      {
        actor_id: admin.id,
        actor_email: 'rules-admin@example.test',
        action: 'order.paid',
        entity_type: 'order',
        entity_id: id,
        before: { reference, status: 'awaiting_transfer' },
        after: { reference, status: 'paid' },
      },
    ])
  })

  it('cancel: recorded once, and not again for an order already cancelled', async () => {
    const { id, reference } = await customerOrder('pending')
    const caller = await callerAs(db(), admin)
    expect(await caller.admin.orders.cancel({ id })).toEqual({ id })
    expect(await caller.admin.orders.cancel({ id })).toEqual({ id })
    expect(await statusOf(id)).toBe('cancelled')
    expect(await auditOf(id)).toEqual([
      {
        actor_id: admin.id,
        actor_email: 'rules-admin@example.test',
        action: 'order.cancel',
        entity_type: 'order',
        entity_id: id,
        before: { reference, status: 'pending' },
        after: { reference, status: 'cancelled' },
      },
    ])
  })
})

describe("staff's order list", () => {
  it('pages ten at a time, newest first, and says whether a next page exists (a full last page has none)', async () => {
    const customer = await createUser(db())
    const courseId = (await publishedCourse(db(), 5)).id
    const ids: string[] = []
    for (let i = 0; i < 20; i++) {
      const id = await placeOrder(db(), { userId: customer.id, courseId, reference: `SF-PAGE-${i}`, status: 'expired' })
      await db()
        .updateTable('orders')
        .set({ created_at: new Date(Date.UTC(2026, 0, 1, 0, i)) } as never) // created_at is insert-only in the types
        .where('id', '=', id)
        .execute()
      ids.push(id)
    }
    const caller = await callerAs(db(), admin)
    const first = await caller.admin.orders.list({ status: 'expired' })
    expect(first).toMatchObject({ page: 1, hasNext: true, openRequests: 0 })
    expect(first.items.map((order) => order.id)).toEqual(ids.slice(10).reverse())
    const second = await caller.admin.orders.list({ status: 'expired', page: 2 })
    expect(second).toMatchObject({ page: 2, hasNext: false, openRequests: 0 })
    expect(second.items.map((order) => order.id)).toEqual(ids.slice(0, 10).reverse())
  })
})

describe('an order that does not exist', () => {
  it('is not paid, confirmed or cancelled', async () => {
    const missing = randomUUID()
    expect(await markPaid(db(), missing, { source: 'stripe' })).toBe('not_found')
    await expect(confirmPaymentByStaff(db(), missing, admin)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'Order not found',
    })
    await expect(cancelByStaff(db(), missing, admin)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'Order not found',
    })
  })
})

describe('order history', () => {
  it("shows each order's own items", async () => {
    const user = await createUser(db())
    const [first, second, third] = await pricedCourses(db(), { count: 3, offset: 4 })
    const a = await placeOrder(db(), { userId: user.id, courses: [first!], reference: 'SF-HIST-1', status: 'paid' })
    const b = await placeOrder(db(), {
      userId: user.id,
      courses: [second!, third!],
      reference: 'SF-HIST-2',
      status: 'cancelled',
    })
    const history = await (await shopCaller(db(), user, payments)).purchases.orders()
    const itemsOf = (id: string) =>
      history
        .find((order) => order.id === id)!
        .items.map((item) => item.title)
        .sort()
    expect(history.map((order) => order.id).sort()).toEqual([a, b].sort())
    expect(itemsOf(a)).toEqual([first!.title])
    expect(itemsOf(b)).toEqual([second!.title, third!.title].sort())
  })
})
