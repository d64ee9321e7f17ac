// The cart's one pending order (orders/create.ts), asked for directly as checkout asks for it: a new order snapshots
// the cart's lines, prices, rail and invoice details; the same cart and rail again gives that order back (new
// invoice details replace the old); a changed cart or another rail finds the order in the way; a PayPal order that
// emptied the cart is given back on a second click; a free cart is a free order whatever the rail; and a unique
// violation (two checkouts of one cart racing past the read) is retried once, outside a caller's transaction only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listCartLines } from '../../../src-server/flows/cart-lines.ts'
import { createFromCart, openCartOrder } from '../../../src-server/flows/cart-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import type { Billing, CreatedOrder } from '../../../src-server/orders/create.ts'
import { createTestDatabase } from '../../support/db.ts'
import { createUser } from '../../support/factories.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

const BILLING: Required<Billing> = {
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  company: 'Analytical Engines Ltd',
  address: '12 St James’s Square, London',
  vatNumber: 'GB123456789',
}

/** A buyer whose cart holds the USD courses at `offset` (each test its own) and, with `plan`, the Basic plan. */
async function shopper(offset: number, count: number, plan = false) {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user)
  const courses = await pricedCourses(db(), { count, offset })
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  if (plan) await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  return { user, caller, courses }
}

const orderRow = (id: string) =>
  db()
    .selectFrom('orders')
    .select(['status', 'method', 'source', 'total_minor', 'billing_name', 'billing_email', 'billing_company'])
    .select(['billing_address', 'billing_vat_number', 'stripe_session_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
const pendingOrdersOf = (userId: string) =>
  db()
    .selectFrom('orders')
    .select(['id', 'reference', 'method', 'total_minor', 'stripe_session_id'])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute()
const cartKeys = async (userId: string) => (await listCartLines(db(), userId)).map((line) => line.key).sort()

/** The lines of a pending order as checkout sends them again (the price snapshot, in any order). */
const heldLines = (lines: Awaited<ReturnType<typeof listCartLines>>) =>
  lines.map((line) => ({
    key: line.key,
    kind: line.kind,
    planId: line.planId,
    billingCycle: line.billingCycle,
    title: line.title,
    detail: line.detail,
    priceMinor: line.priceMinor,
    discountMinor: 0,
    recurringInterval: line.recurringInterval,
  }))
/** A pending order's lines as given back also carry their cart key (CheckoutLine does not name it). */
const keyOf = (line: object) => (line as { key?: string }).key
const byKey = <T extends { key: string }>(lines: T[]) => [...lines].sort((a, b) => a.key.localeCompare(b.key))

describe('a new pending order', () => {
  it('holds the cart’s lines at their prices on the chosen rail, with the invoice details; the cart keeps its lines', async () => {
    const { user } = await shopper(0, 2, true)
    const lines = await listCartLines(db(), user.id)
    const total = lines.reduce((sum, line) => sum + line.priceMinor, 0)
    const told: CreatedOrder[] = []
    const order = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
      billing: BILLING,
      onCreated: async (_trx, created) => {
        told.push(created)
      },
    })
    const [row] = await pendingOrdersOf(user.id)
    const expected: CreatedOrder = {
      id: row!.id,
      reference: row!.reference,
      currency: 'USD',
      method: 'bank_transfer',
      totalMinor: total,
      // No coupon: every line's stored share is 0.
      lines: lines.map((line) => ({ ...line, discountMinor: 0 })),
      reused: false,
      stripeSessionId: null,
    }
    expect(order).toEqual(expected)
    expect(told).toEqual([expected])
    expect(order.reference).toMatch(/^SF-[0-9A-Z]+-[0-9A-F]{4}$/)
    expect(await orderRow(order.id)).toEqual({
      status: 'pending',
      method: 'bank_transfer',
      source: 'cart',
      total_minor: total,
      billing_name: BILLING.name,
      billing_email: BILLING.email,
      billing_company: BILLING.company,
      billing_address: BILLING.address,
      billing_vat_number: BILLING.vatNumber,
      stripe_session_id: null,
    })
    expect(await cartKeys(user.id)).toEqual(lines.map((line) => line.key).sort())
  })

  it('refuses an empty cart', async () => {
    const user = await createUser(db())
    await expect(
      createFromCart(db(), { userId: user.id, currency: 'USD', method: 'card', referencePrefix: 'SF' }),
    ).rejects.toMatchObject({ kind: 'invalid', message: 'Your cart is empty' })
    expect(await pendingOrdersOf(user.id)).toEqual([])
  })
})

describe('the same cart and rail again', () => {
  it('gives the pending order back with its lines as held, whatever their order; new invoice details replace the old', async () => {
    const { user } = await shopper(3, 5, true)
    const lines = await listCartLines(db(), user.id)
    const first = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'card',
      referencePrefix: 'SF',
      billing: BILLING,
    })
    await db().updateTable('orders').set({ stripe_session_id: 'cs_test_reused' }).where('id', '=', first.id).execute()
    let told = 0
    const again = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'card',
      referencePrefix: 'SF',
      billing: { name: 'Grace Hopper' },
      onCreated: async () => {
        told++
      },
    })
    expect({ ...again, lines: byKey(again.lines as unknown as { key: string }[]) }).toEqual({
      id: first.id,
      reference: first.reference,
      currency: 'USD',
      method: 'card',
      totalMinor: first.totalMinor,
      lines: byKey(heldLines(lines)),
      reused: true,
      stripeSessionId: 'cs_test_reused',
    })
    expect(told).toBe(0)
    expect(await orderRow(first.id)).toMatchObject({
      billing_name: 'Grace Hopper',
      billing_email: null,
      billing_company: null,
      billing_address: null,
      billing_vat_number: null,
    })
    // Asked again without invoice details: the ones given last stay.
    expect(
      await createFromCart(db(), { userId: user.id, currency: 'USD', method: 'card', referencePrefix: 'SF' }),
    ).toMatchObject({ id: first.id, reused: true })
    expect(await orderRow(first.id)).toMatchObject({ billing_name: 'Grace Hopper' })
    expect(await pendingOrdersOf(user.id)).toHaveLength(1)
  })

  it('keeps the invoice details of every field given', async () => {
    const { user } = await shopper(8, 1)
    const first = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
    })
    expect(await orderRow(first.id)).toMatchObject({ billing_name: null, billing_email: null })
    await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
      billing: BILLING,
    })
    expect(await orderRow(first.id)).toMatchObject({
      billing_name: BILLING.name,
      billing_email: BILLING.email,
      billing_company: BILLING.company,
      billing_address: BILLING.address,
      billing_vat_number: BILLING.vatNumber,
    })
  })
})

describe('a pending order in the way', () => {
  async function startedCard(offset: number, count: number) {
    const { user, caller, courses } = await shopper(offset, count)
    const order = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'card',
      referencePrefix: 'SF',
    })
    const [pending] = await pendingOrdersOf(user.id)
    return { user, caller, courses, order, pending: pending! }
  }
  const ask = (userId: string, method: 'card' | 'bank_transfer' | 'paypal' = 'card') =>
    openCartOrder(db(), { userId, currency: 'USD', method, referencePrefix: 'SF' })

  it('a line added, a line removed or a price changed since: the order is in the way, and createFromCart refuses', async () => {
    const added = await startedCard(9, 2)
    await added.caller.cart.add({ kind: 'course', courseId: (await pricedCourses(db(), { offset: 11 }))[0]!.id })
    expect(await ask(added.user.id)).toEqual({ kind: 'in_the_way', pending: added.pending })
    await expect(
      createFromCart(db(), { userId: added.user.id, currency: 'USD', method: 'card', referencePrefix: 'SF' }),
    ).rejects.toMatchObject({
      kind: 'conflict',
      message: 'A checkout of this cart is already in progress. Please try again.',
    })

    const removed = await startedCard(12, 2)
    const [line] = await listCartLines(db(), removed.user.id)
    await removed.caller.cart.remove({ itemId: line!.id })
    expect(await ask(removed.user.id)).toEqual({ kind: 'in_the_way', pending: removed.pending })

    const repriced = await startedCard(14, 2)
    await db()
      .updateTable('courses')
      .set({ price_minor: repriced.courses[1]!.price_minor + 100 })
      .where('id', '=', repriced.courses[1]!.id)
      .execute()
    expect(await ask(repriced.user.id)).toEqual({ kind: 'in_the_way', pending: repriced.pending })
  })

  it('a card order whose cart was emptied since is in the way (only a PayPal order is given back so)', async () => {
    const { user, caller, pending } = await startedCard(16, 1)
    await caller.cart.clear()
    expect(await ask(user.id)).toEqual({ kind: 'in_the_way', pending })
  })

  it('another rail: in the way; createFromCart says a checkout is in progress, or that PayPal waits', async () => {
    const card = await startedCard(17, 1)
    expect(await ask(card.user.id, 'bank_transfer')).toEqual({ kind: 'in_the_way', pending: card.pending })
    await expect(
      createFromCart(db(), { userId: card.user.id, currency: 'USD', method: 'bank_transfer', referencePrefix: 'SF' }),
    ).rejects.toMatchObject({
      kind: 'conflict',
      message: 'A checkout of this cart is already in progress. Please try again.',
    })

    const { user } = await shopper(18, 1)
    await createFromCart(db(), { userId: user.id, currency: 'USD', method: 'paypal', referencePrefix: 'SF' })
    await expect(
      createFromCart(db(), { userId: user.id, currency: 'USD', method: 'card', referencePrefix: 'SF' }),
    ).rejects.toMatchObject({
      kind: 'conflict',
      message:
        'Your PayPal order is waiting for our confirmation. Cancel it from your cart before starting another checkout.',
    })
  })
})

describe('PayPal', () => {
  it('empties the cart when the order is made; a second click gives the same order back, a changed cart does not', async () => {
    const { user, courses } = await shopper(19, 2)
    const first = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'paypal',
      referencePrefix: 'SF',
    })
    expect(first).toMatchObject({ method: 'paypal', reused: false })
    expect(await cartKeys(user.id)).toEqual([])
    const again = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'paypal',
      referencePrefix: 'SF',
    })
    expect(again).toMatchObject({ id: first.id, reference: first.reference, method: 'paypal', reused: true })
    expect(again.lines.map((line) => keyOf(line)).sort()).toEqual(courses.map((course) => `course:${course.id}`).sort())
    // Something new in the cart since: the PayPal order is in the way of it.
    await (await shopCaller(db(), user)).cart.add({
      kind: 'course',
      courseId: (await pricedCourses(db(), { offset: 24 }))[0]!.id,
    })
    await expect(
      createFromCart(db(), { userId: user.id, currency: 'USD', method: 'paypal', referencePrefix: 'SF' }),
    ).rejects.toMatchObject({
      kind: 'conflict',
      message:
        'Your PayPal order is waiting for our confirmation. Cancel it from your cart before starting another checkout.',
    })
  })
})

describe('a cart whose total is 0', () => {
  it('is a free order whatever the rail picked, the free one included; its lines stay in the cart until paid', async () => {
    for (const [index, method] of (['free', 'card', 'paypal'] as const).entries()) {
      const user = await createUser(db())
      const caller = await shopCaller(db(), user)
      const [course] = await pricedCourses(db(), { free: true, offset: index })
      await caller.cart.add({ kind: 'course', courseId: course!.id })
      const order = await createFromCart(db(), { userId: user.id, currency: 'USD', method, referencePrefix: 'SF' })
      expect(order).toMatchObject({ method: 'free', totalMinor: 0, reused: false })
      expect(await orderRow(order.id)).toMatchObject({ status: 'pending', method: 'free', total_minor: 0 })
      expect(await cartKeys(user.id)).toEqual([`course:${course!.id}`])
    }
  })

  it('the free rail is refused for a cart with something to pay', async () => {
    const { user } = await shopper(20, 1)
    await expect(
      createFromCart(db(), { userId: user.id, currency: 'USD', method: 'free', referencePrefix: 'SF' }),
    ).rejects.toMatchObject({ kind: 'invalid', message: 'This cart is not free: please choose a payment method' })
  })
})

describe('two checkouts of one cart racing past the read', () => {
  /** An onCreated whose first call meets another pending order of the cart, as the loser of the race does. */
  function racedOnce(userId: string) {
    const calls = { count: 0 }
    const onCreated = async (trx: Parameters<NonNullable<Parameters<typeof createFromCart>[1]['onCreated']>>[0]) => {
      calls.count++
      if (calls.count > 1) return
      await trx
        .insertInto('orders')
        .values({
          user_id: userId,
          reference: `SF-RACE-${userId}`,
          currency: 'USD',
          method: 'card',
          subtotal_minor: 1,
          total_minor: 1,
        })
        .execute()
    }
    return { calls, onCreated }
  }

  it('the unique violation is retried once: one pending order, made by the retry', async () => {
    const { user } = await shopper(21, 1)
    const { calls, onCreated } = racedOnce(user.id)
    const order = await createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
      onCreated,
    })
    expect(calls.count).toBe(2)
    expect(order).toMatchObject({ method: 'bank_transfer', reused: false })
    expect((await pendingOrdersOf(user.id)).map((row) => row.id)).toEqual([order.id])
  })

  it('any other error is not retried', async () => {
    const { user } = await shopper(22, 1)
    let calls = 0
    const failing = createFromCart(db(), {
      userId: user.id,
      currency: 'USD',
      method: 'bank_transfer',
      referencePrefix: 'SF',
      onCreated: async () => {
        calls++
        if (calls === 1) throw new Error('mail queue down')
      },
    })
    await expect(failing).rejects.toThrow('mail queue down')
    expect(calls).toBe(1)
    expect(await pendingOrdersOf(user.id)).toEqual([])
  })

  it('inside a caller’s transaction the violation is the caller’s to handle (that transaction is aborted)', async () => {
    const { user } = await shopper(23, 1)
    const { calls, onCreated } = racedOnce(user.id)
    const inCallers = db()
      .transaction()
      .execute((trx) =>
        createFromCart(trx, {
          userId: user.id,
          currency: 'USD',
          method: 'bank_transfer',
          referencePrefix: 'SF',
          onCreated,
        }),
      )
    await expect(inCallers).rejects.toMatchObject({ code: '23505' })
    expect(calls.count).toBe(1)
    expect(await pendingOrdersOf(user.id)).toEqual([])
  })
})
