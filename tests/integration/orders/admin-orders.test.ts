// The Orders page and the dashboard's sales: staff mark bank-transfer and PayPal orders paid (fulfilled once,
// through the checkout's own path) or cancelled; revenue per day per currency is counted in the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { lastDays } from '../../../src-server/reports/sales.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { messageOf } from '../../support/outcome.ts'

let database: DatabaseHandle
let admin: TestUser
let customer: TestUser
let courseId: string
let counter = 0

/** A course order of the customer's, as checkout leaves it before payment. */
function placeCustomerOrder(
  method: 'card' | 'paypal' | 'bank_transfer',
  status: 'pending' | 'awaiting_transfer',
  currency: 'USD' | 'GBP' = 'USD',
  totalMinor = 4999,
) {
  counter += 1
  return placeOrder(database.db, {
    userId: customer.id,
    courseId,
    reference: `SF-TEST-${counter}`,
    method,
    status,
    currency,
    totalMinor,
  })
}

beforeAll(async () => {
  database = await createTestDatabase()
  admin = await createUser(database.db, { role: 'admin', email: 'orders-admin@example.test' })
  customer = await createUser(database.db, { role: 'customer', email: 'buyer@example.test' })
  const course = await database.db
    .selectFrom('courses')
    .select('id')
    .where('status', '=', 'published')
    .executeTakeFirstOrThrow()
  courseId = course.id
})
afterAll(async () => {
  await database.close()
})

describe('admin.orders', () => {
  it('lists orders newest first with the customer, filtered by status', async () => {
    const id = await placeCustomerOrder('bank_transfer', 'awaiting_transfer')
    const caller = await callerAs(database.db, await createUser(database.db, { role: 'viewer' }))
    const list = await caller.admin.orders.list({})
    expect(list.items[0]).toMatchObject({
      id,
      customerEmail: 'buyer@example.test',
      status: 'awaiting_transfer',
      method: 'bank_transfer',
    })
    expect((await caller.admin.orders.list({ status: 'paid' })).items.some((o) => o.id === id)).toBe(false)
  })

  it('finds one order by its reference (in any case) and a customer’s orders by their address (in any case)', async () => {
    const mine = await placeCustomerOrder('bank_transfer', 'awaiting_transfer')
    const other = await createUser(database.db, { role: 'customer', email: 'Someone.Else@Example.test' })
    const theirs = await placeOrder(database.db, {
      userId: other.id,
      courseId,
      reference: 'SF-FIND-THEIRS',
      method: 'paypal',
      status: 'pending',
      currency: 'USD',
      totalMinor: 1000,
    })
    const caller = await callerAs(database.db, await createUser(database.db, { role: 'viewer' }))
    const ids = async (input: Parameters<typeof caller.admin.orders.list>[0]) =>
      (await caller.admin.orders.list(input)).items.map((order) => order.id)

    expect(await ids({ lookup: ` SF-TEST-${counter} ` })).toEqual([mine])
    expect(await ids({ lookup: `sf-test-${counter}` })).toEqual([mine])
    expect(await ids({ lookup: 'someone.else@example.TEST' })).toEqual([theirs])
    expect(await ids({ lookup: 'SOMEONE.ELSE@example.test', status: 'paid' })).toEqual([])
    expect(await ids({ lookup: 'SF-NO-SUCH' })).toEqual([])
    const buyers = await caller.admin.orders.list({ lookup: 'buyer@example.test' })
    expect(buyers.items.length).toBeGreaterThan(0)
    expect(buyers.items.every((order) => order.customerEmail === 'buyer@example.test')).toBe(true)

    await expect(caller.admin.orders.list({ lookup: 'someone@' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Enter a whole e-mail address'),
    })
  })

  it('marks a bank-transfer order paid: the buyer is enrolled once, and the change is audited once', async () => {
    const id = await placeCustomerOrder('bank_transfer', 'awaiting_transfer')
    const caller = await callerAs(database.db, admin)
    expect(await caller.admin.orders.markPaid({ id })).toEqual({ id, result: 'fulfilled' })
    expect(await caller.admin.orders.markPaid({ id })).toEqual({ id, result: 'already_paid' })
    const order = await database.db
      .selectFrom('orders')
      .select(['status', 'status_changed_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(order).toEqual({ status: 'paid', status_changed_by: admin.id })
    // This order's grants (other tests here pay orders of the same customer and course, in any order).
    const enrolments = await database.db
      .selectFrom('access_grants')
      .where('kind', '=', 'course')
      .select(['course_id', 'user_id'])
      .where('order_id', '=', id)
      .execute()
    expect(enrolments).toEqual([{ course_id: courseId, user_id: customer.id }])
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['actor_email', 'after'])
      .where('entity_id', '=', id)
      .execute()
    expect(audit).toEqual([
      { actor_email: 'orders-admin@example.test', after: { reference: expect.any(String), status: 'paid' } },
    ])
    // A course someone bought is archived, not deleted.
    expect(await (await callerAs(database.db, admin)).admin.courses.delete({ id: courseId })).toEqual({
      archived: true,
    })
  })

  it('refuses to mark a card order paid (Stripe confirms those) and to cancel a paid order', async () => {
    const caller = await callerAs(database.db, admin)
    const card = await placeCustomerOrder('card', 'pending')
    expect(await messageOf(caller.admin.orders.markPaid({ id: card }))).toBe(
      'Card payments are confirmed by Stripe, not by staff',
    )
    // One pending order per cart and currency: the customer's card order is retired first.
    await database.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', card).execute()
    const paypal = await placeCustomerOrder('paypal', 'pending')
    await caller.admin.orders.markPaid({ id: paypal })
    expect(await messageOf(caller.admin.orders.cancel({ id: paypal }))).toBe('A paid order cannot be cancelled')
  })

  it('cancels an unpaid order, which then cannot be marked paid', async () => {
    const caller = await callerAs(database.db, admin)
    const id = await placeCustomerOrder('bank_transfer', 'awaiting_transfer')
    await caller.admin.orders.cancel({ id })
    expect(
      (await database.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
    ).toBe('cancelled')
    expect(await messageOf(caller.admin.orders.markPaid({ id }))).toBe('A cancelled order cannot be marked as paid')
  })
})

describe('dashboard sales', () => {
  it('sums what paid orders took less what was given back, per day and per currency, over the last 30 days', async () => {
    const caller = await callerAs(database.db, admin)
    // A paid order in each currency of its own, so both series exist whichever tests ran before.
    const usd = await placeCustomerOrder('paypal', 'pending', 'USD', 4999)
    await caller.admin.orders.markPaid({ id: usd })
    const gbp = await placeCustomerOrder('paypal', 'pending', 'GBP', 30000)
    await caller.admin.orders.markPaid({ id: gbp })
    // An order paid 40 days ago is outside the window.
    const old = await placeCustomerOrder('paypal', 'pending', 'GBP', 99900)
    await caller.admin.orders.markPaid({ id: old })
    await database.db
      .updateTable('orders')
      .set({ paid_at: new Date(Date.now() - 40 * 86_400_000) })
      .where('id', '=', old)
      .execute()

    const { sales } = await caller.admin.dashboard.summary()
    // Every order that took money, whatever became of it since (refunded in part or whole).
    const paid = await database.db
      .selectFrom('orders')
      .select(['currency', 'captured_minor', 'refunded_minor', 'paid_at'])
      .where('paid_at', 'is not', null)
      .where('captured_minor', '>', 0)
      .execute()
    const recent = paid.filter((o) => o.paid_at!.getTime() > Date.now() - 29 * 86_400_000)
    for (const currency of ['USD', 'GBP']) {
      const line = sales.series.find((s) => s.currency === currency)!
      const mine = recent.filter((o) => o.currency === currency)
      expect(line.points).toHaveLength(30)
      expect(line.orders).toBe(mine.length)
      expect(line.revenueMinor).toBe(mine.reduce((sum, o) => sum + o.captured_minor - o.refunded_minor, 0))
      expect(line.points.at(-1)?.revenueMinor).toBe(line.revenueMinor)
    }
    expect(sales.series.find((s) => s.currency === 'GBP')?.revenueMinor).toBe(30000)
  })

  it('takes off what a refund gave back, not the whole order (decision 0133)', async () => {
    const caller = await callerAs(database.db, admin)
    const courses = await database.db
      .selectFrom('courses')
      .select(['id', 'title'])
      .where('status', '=', 'published')
      .orderBy('id')
      .limit(2)
      .execute()
    counter += 1
    const orderId = await placeOrder(database.db, {
      userId: customer.id,
      reference: `SF-TEST-${counter}`,
      method: 'paypal',
      courses: [
        { ...courses[0]!, price_minor: 12000 },
        { ...courses[1]!, price_minor: 10498 },
      ],
    })
    const usd = async () => (await caller.admin.dashboard.summary()).sales.series.find((s) => s.currency === 'USD')!
    const before = await usd()
    await caller.admin.orders.markPaid({ id: orderId })
    const paid = await usd()
    expect(paid.revenueMinor).toBe(before.revenueMinor + 22498)
    expect(paid.orders).toBe(before.orders + 1)

    const lines = await database.db.selectFrom('order_items').select('id').where('order_id', '=', orderId).execute()
    const refund = await caller.admin.orders.refund({ orderId, lineIds: [lines[0]!.id], reference: 'PP-REFUND-1' })
    // A line refunded: the order is Partially refunded, and only what went back leaves the figure.
    expect(await usd()).toMatchObject({ revenueMinor: paid.revenueMinor - refund.amountMinor, orders: paid.orders })
    await caller.admin.orders.refund({ orderId, reference: 'PP-REFUND-2' })
    // All of it given back: nothing of it is revenue, and it still counts as an order that was paid.
    expect(await usd()).toMatchObject({ revenueMinor: before.revenueMinor, orders: paid.orders })
  })

  it('lists the 30 UTC days ending today', () => {
    const days = lastDays(new Date('2026-03-02T23:30:00Z'))
    expect(days).toHaveLength(30)
    expect(days[0]).toBe('2026-02-01')
    expect(days.at(-1)).toBe('2026-03-02')
  })
})
