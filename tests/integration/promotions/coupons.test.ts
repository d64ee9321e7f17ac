// Coupons end to end on the money path: staff make a code (hostile input refused), buyers apply it (each refusal
// says why), checkout stores each line's share (largest remainder), and the invoice, a line refund and the creator's
// share all use the stored discounted amounts; an order that expires or is cancelled gives its use back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expireAbandonedCheckouts } from '../../../src-server/flows/abandoned-checkouts.ts'
import { awaitTransfer, cancelByBuyer, createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { advanceClock, resetClock } from '../../../src-server/kernel/clock.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { expire } from '../../../src-server/orders/pending.ts'
import { defaultPayments, type PaymentsConfig } from '../../../src-server/payments/config.ts'
import {
  belowMinimumRefusal,
  COUPON_REFUSALS,
  COUPON_TOO_MANY,
  codeCoversFewerCheckouts,
} from '../../../src-shared/promotions.ts'
import { createTestDatabase } from '../../support/db.ts'
import { ownedCourse } from '../../support/earnings.ts'
import { callerAs, createUser } from '../../support/factories.ts'
import { shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
const db = () => database.db
const payments: PaymentsConfig = { ...defaultPayments, paypalMeUrl: 'https://paypal.me/skillforge' }

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())
afterEach(() => resetClock())

let codeSeq = 0
const newCode = (prefix = 'SAVE') => `${prefix}${Date.now().toString(36).toUpperCase()}${codeSeq++}`

async function staff() {
  return callerAs(db(), await createUser(db(), { role: 'editor' }))
}

async function shopper(email?: string) {
  const user = await createUser(db(), email ? { email } : {})
  return { user, caller: await shopCaller(db(), user, payments) }
}

/** Staff make a 10 % code on everything with these limits (or other fields); gives the code. */
async function tenPercentCode(
  editor: Awaited<ReturnType<typeof staff>>,
  input: Record<string, unknown>,
  prefix?: string,
) {
  const code = newCode(prefix)
  await editor.admin.coupons.create({
    kind: 'percent',
    percentOff: 10,
    appliesTo: 'everything',
    code,
    ...input,
  } as never)
  return code
}

/** The buyer's cart as a bank-transfer order in USD (pending until marked paid or transferred). */
const bankOrder = (userId: string) =>
  createFromCart(db(), { userId, currency: 'USD', method: 'bank_transfer', referencePrefix: 'SF' })

async function refusalOf(promise: Promise<unknown>) {
  return promise.then(
    () => 'accepted',
    (error: Error) => error.message,
  )
}

describe('making coupons', () => {
  it('refuses hostile input with a clear reason', async () => {
    const editor = await staff()
    const base = { kind: 'percent' as const, percentOff: 20, appliesTo: 'everything' as const }
    const issues = async (input: Record<string, unknown>) =>
      refusalOf(editor.admin.coupons.create({ ...base, code: newCode(), ...input } as never))
    expect(await issues({ percentOff: -5 })).toContain('between 1 and 100')
    expect(await issues({ percentOff: 150 })).toContain('between 1 and 100')
    // NUL is refused for every input before the procedure runs, with its own message.
    expect(await issues({ code: 'BAD\u0000CODE' })).toMatch(/NUL|letters, digits/)
    expect(await issues({ code: 'X'.repeat(10_000) })).toContain('letters, digits')
    expect(await issues({ startsAt: '2026-12-10T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' })).toContain(
      'The end must be after the start',
    )
    // Found by the malformed-input fuzz: a date the database cannot hold, and a creator id naming no account.
    expect(await issues({ startsAt: '0000-01-01T00:00:00Z' })).toContain('between the years 2000 and 2199')
    expect(await issues({ creatorId: '00000000-0000-4000-8000-000000000000' })).toBe('Choose an existing creator')
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 2_000)
    expect(
      await issues({
        kind: 'fixed',
        percentOff: null,
        amountsOff: { USD: 2_500 },
        appliesTo: 'courses',
        courseIds: [course.id],
      }),
    ).toContain('more than the price')
    // A viewer cannot make one; a code is unique whatever its case.
    const viewer = await callerAs(db(), await createUser(db(), { role: 'viewer' }))
    expect(await refusalOf(viewer.admin.coupons.create({ ...base, code: newCode() } as never))).toContain('permission')
    const code = newCode()
    await editor.admin.coupons.create({ ...base, code } as never)
    expect(await issues({ code: code.toLowerCase() })).toBe('A coupon with this code already exists')
    const audit = await db().selectFrom('audit_log').select('action').where('entity_type', '=', 'coupon').execute()
    expect(audit.map((row) => row.action)).toContain('coupon.create')
  })
})

describe('applying a code', () => {
  it('says why a code is refused', async () => {
    const editor = await staff()
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 5_000)
    const other = await ownedCourse(db(), creator.id, 3_000)
    const { caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: course.id })
    const apply = (code: string) => refusalOf(caller.cart.applyCoupon({ code }))

    expect(await apply('NOSUCHCODE')).toBe(COUPON_REFUSALS.unknown)
    const make = (input: Record<string, unknown>) => tenPercentCode(editor, input)
    const later = await make({ startsAt: new Date(Date.now() + 86_400_000).toISOString() })
    expect(await apply(later)).toBe(COUPON_REFUSALS.notStarted)
    const soon = await make({ endsAt: new Date(Date.now() + 3_600_000).toISOString() })
    expect(await apply(soon.toLowerCase())).toBe('accepted')
    await advanceClock(7_200)
    expect(await apply(soon)).toBe(COUPON_REFUSALS.expired)
    resetClock()
    expect(await apply(await make({ appliesTo: 'courses', courseIds: [other.id] }))).toBe(
      COUPON_REFUSALS.nothingApplies,
    )
    // Under the minimum, the refusal names the minimum (decision 0147).
    expect(await apply(await make({ minAmounts: { USD: 10_000 } }))).toBe(belowMinimumRefusal('$100.00'))
    const sixty = await make({ appliesTo: 'courses', courseIds: [course.id] })
    expect(await apply(sixty)).toBe('accepted')
    // One code per cart: the last applied replaces the first.
    expect((await caller.cart.list())?.coupon).toEqual({ code: sixty, applies: true, refusal: null, note: null })
    expect((await caller.cart.list())?.totals[0]).toMatchObject({
      subtotalMinor: 5_000,
      discountMinor: 500,
      totalMinor: 4_500,
    })
    // Removing the item it applied to removes the discount and the code.
    const line = (await caller.cart.list())!.items[0]!
    await caller.cart.remove({ itemId: line.id })
    expect((await caller.cart.list())?.coupon).toBeNull()
  })
})

describe('a code over a cart of two currencies (two orders)', () => {
  it('says when the code may be used on fewer orders than the currencies it discounts', async () => {
    const editor = await staff()
    const creator = await createUser(db())
    const inDollars = await ownedCourse(db(), creator.id, 2_000)
    const inPounds = await ownedCourse(db(), creator.id, 2_000)
    await db().updateTable('courses').set({ price_gbp_minor: 1_600 }).where('id', '=', inPounds.id).execute()
    const make = (limits: Record<string, unknown>) => tenPercentCode(editor, limits, 'TWO')
    const { user, caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: inDollars.id })
    await caller.cart.add({ kind: 'course', courseId: inPounds.id, currency: 'GBP' })
    const cartWith = async (code: string) => {
      await caller.cart.removeCoupon()
      await caller.cart.applyCoupon({ code })
      return (await caller.cart.list())!
    }

    // Once per customer: both totals show the discount (either may be paid first), and the cart says only one gets it.
    const once = await make({ maxUsesPerCustomer: 1 })
    const cart = await cartWith(once)
    expect(cart.totals.map((total) => [total.currency, total.discountMinor])).toEqual([
      ['USD', 200],
      ['GBP', 160],
    ])
    expect(cart.coupon).toMatchObject({ code: once, applies: true, note: codeCoversFewerCheckouts(once, 1) })
    // A first-purchase code and a code with one use left in all say the same; an unlimited one, or two a customer, nothing.
    const firstOnly = await make({ firstPurchaseOnly: true })
    expect((await cartWith(firstOnly)).coupon?.note).toBe(codeCoversFewerCheckouts(firstOnly, 1))
    const lastUse = await make({ maxUses: 2 })
    const other = await shopper()
    await other.caller.cart.add({ kind: 'course', courseId: inDollars.id })
    await other.caller.cart.applyCoupon({ code: lastUse })
    await bankOrder(other.user.id)
    expect((await cartWith(lastUse)).coupon?.note).toBe(codeCoversFewerCheckouts(lastUse, 1))
    expect((await cartWith(await make({}))).coupon?.note).toBeNull()
    expect((await cartWith(await make({ maxUsesPerCustomer: 2 }))).coupon?.note).toBeNull()

    // The dollars paid with the once-per-customer code: the pounds left in the cart are discounted no more.
    await cartWith(once)
    const paid = await bankOrder(user.id)
    await awaitTransfer(db(), user.id, paid.id)
    expect(await markPaid(db(), paid.id, { source: 'staff' })).toBe('fulfilled')
    const after = (await caller.cart.list())!
    expect(after.totals.map((total) => [total.currency, total.discountMinor])).toEqual([['GBP', 0]])
    expect(after.coupon).toMatchObject({ code: once, applies: false, refusal: COUPON_REFUSALS.alreadyUsed, note: null })
  })
})

describe('guessing codes (decision 0114)', () => {
  it('after ten codes that do not exist, every code is refused for a while, a real one included', async () => {
    const editor = await staff()
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 5_000)
    const code = newCode()
    await editor.admin.coupons.create({ kind: 'percent', percentOff: 10, appliesTo: 'everything', code } as never)
    const { caller } = await shopper()
    await caller.cart.add({ kind: 'course', courseId: course.id })
    const apply = (typed: string) => refusalOf(caller.cart.applyCoupon({ code: typed }))
    // A real code's answers (accepted or refused for a reason) are not guesses: they never count.
    for (let i = 0; i < 12; i++) expect(await apply(code)).toBe('accepted')
    for (let i = 0; i < 10; i++) expect(await apply(`GUESS${i}`)).toBe(COUPON_REFUSALS.unknown)
    expect(await apply('GUESS10')).toBe(COUPON_TOO_MANY)
    expect(await apply(code)).toBe(COUPON_TOO_MANY)
    // Another person is not held back by this one's guesses.
    const other = await shopper()
    await other.caller.cart.add({ kind: 'course', courseId: course.id })
    expect(await refusalOf(other.caller.cart.applyCoupon({ code }))).toBe('accepted')
  })
})

describe('a code leaves the cart with the order that empties it', () => {
  it('once the order is paid (or awaits its transfer), a course added next is not discounted by the old code', async () => {
    const editor = await staff()
    const creator = await createUser(db())
    const [first, next] = [await ownedCourse(db(), creator.id, 2_000), await ownedCourse(db(), creator.id, 3_000)]
    const code = newCode('ONCE')
    await editor.admin.coupons.create({ code, kind: 'percent', percentOff: 20, appliesTo: 'everything' } as never)

    const buyer = await shopper()
    await buyer.caller.cart.add({ kind: 'course', courseId: first.id })
    await buyer.caller.cart.applyCoupon({ code })
    const order = await bankOrder(buyer.user.id)
    expect(order.totalMinor).toBe(1_600)
    // Still pending: the lines and the code stay in the cart (the buyer may change their mind).
    expect((await buyer.caller.cart.list())?.coupon?.code).toBe(code)
    expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
    await buyer.caller.cart.add({ kind: 'course', courseId: next.id })
    const cart = await buyer.caller.cart.list()
    expect(cart?.coupon).toBeNull()
    expect(cart?.totals).toEqual([expect.objectContaining({ currency: 'USD', discountMinor: 0 })])

    // "I've made the transfer" empties the cart too: the code goes with its lines.
    await buyer.caller.cart.applyCoupon({ code })
    const transfer = await bankOrder(buyer.user.id)
    await awaitTransfer(db(), buyer.user.id, transfer.id)
    expect((await buyer.caller.cart.list())?.coupon).toBeNull()
  })
})

describe('an unpaid bank or PayPal order gives its use back when it expires', () => {
  it('the orders.expire job expires it after 7 days (awaiting the transfer or not), and the code is free again', async () => {
    const editor = await staff()
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 2_000)
    const code = newCode('LEFT')
    await editor.admin.coupons.create({
      code,
      kind: 'percent',
      percentOff: 20,
      appliesTo: 'everything',
      maxUses: 2,
    } as never)
    const orderOf = async (method: 'bank_transfer' | 'paypal', transferred: boolean) => {
      const buyer = await shopper()
      await buyer.caller.cart.add({ kind: 'course', courseId: course.id })
      await buyer.caller.cart.applyCoupon({ code })
      const order = await createFromCart(db(), {
        userId: buyer.user.id,
        currency: 'USD',
        method,
        referencePrefix: 'SF',
      })
      if (transferred) await awaitTransfer(db(), buyer.user.id, order.id)
      return order.id
    }
    const bank = await orderOf('bank_transfer', true)
    const paypal = await orderOf('paypal', false)
    const third = await shopper()
    await third.caller.cart.add({ kind: 'course', courseId: course.id })
    expect(await refusalOf(third.caller.cart.applyCoupon({ code }))).toBe(COUPON_REFUSALS.usedUp)
    const statusOf = async (id: string) =>
      (await db().selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

    // Six days on, both still wait; the job leaves them.
    await advanceClock(6 * 86_400)
    await expireAbandonedCheckouts({ db: db(), stripe: null })
    expect([await statusOf(bank), await statusOf(paypal)]).toEqual(['awaiting_transfer', 'pending'])
    expect(await refusalOf(third.caller.cart.applyCoupon({ code }))).toBe(COUPON_REFUSALS.usedUp)

    // Past 7 days: both expire, once, and the third buyer may use the code.
    await advanceClock(86_400 + 60)
    expect(await expireAbandonedCheckouts({ db: db(), stripe: null })).toBeGreaterThanOrEqual(2)
    expect([await statusOf(bank), await statusOf(paypal)]).toEqual(['expired', 'expired'])
    expect(await refusalOf(third.caller.cart.applyCoupon({ code }))).toBe('accepted')
    // An expired order is not confirmed by staff afterwards (a late transfer is refunded instead).
    expect(await markPaid(db(), bank, { source: 'staff' })).not.toBe('fulfilled')
  })
})

describe('a code through checkout, payment and refund', () => {
  it('stores each line’s share once; the invoice, refund and creator share use it; expiry gives the use back', async () => {
    const editor = await staff()
    const creator = await createUser(db())
    const a = await ownedCourse(db(), creator.id, 1_000)
    const b = await ownedCourse(db(), creator.id, 1_000)
    const c = await ownedCourse(db(), creator.id, 1_001)
    const code = newCode()
    await editor.admin.coupons.create({
      code,
      kind: 'percent',
      percentOff: 20,
      appliesTo: 'creator',
      creatorId: creator.id,
      maxUses: 2,
      maxUsesPerCustomer: 1,
    } as never)

    // Buyer 1: three courses, 20 % of 30.01 = 6.00 split 200 / 200 / 200 (no cent lost).
    const one = await shopper()
    for (const course of [a, b, c]) await one.caller.cart.add({ kind: 'course', courseId: course.id })
    await one.caller.cart.applyCoupon({ code })
    const order = await bankOrder(one.user.id)
    expect(order.totalMinor).toBe(3_001 - 600)
    const items = await db()
      .selectFrom('order_items')
      .select(['id', 'course_id', 'unit_price_minor', 'discount_minor'])
      .where('order_id', '=', order.id)
      .execute()
    expect(items.reduce((sum, item) => sum + item.discount_minor, 0)).toBe(600)
    const stored = await db()
      .selectFrom('orders')
      .select(['discount_minor', 'coupon_code', 'total_minor'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ discount_minor: 600, coupon_code: code, total_minor: 2_401 })

    // Buyer 2 (same mailbox with a +tag is the same customer, but another account): takes the second use.
    const two = await shopper()
    await two.caller.cart.add({ kind: 'course', courseId: a.id })
    await two.caller.cart.applyCoupon({ code })
    const second = await bankOrder(two.user.id)
    expect(second.totalMinor).toBe(800)

    // Buyer 3 is refused: used up.
    const three = await shopper()
    await three.caller.cart.add({ kind: 'course', courseId: b.id })
    expect(await refusalOf(three.caller.cart.applyCoupon({ code }))).toBe(COUPON_REFUSALS.usedUp)

    // Buyer 2's order expires: the use comes back and buyer 3 may use it.
    expect(await expire(db(), second.id)).toBe(true)
    expect(await refusalOf(three.caller.cart.applyCoupon({ code }))).toBe('accepted')

    // Buyer 1 pays: the invoice, a line refund and the creator's shares use the discounted prices.
    await awaitTransfer(db(), one.user.id, order.id)
    expect(await markPaid(db(), order.id, { source: 'staff' })).toBe('fulfilled')
    const invoice = await db()
      .selectFrom('invoices')
      .select(['lines', 'subtotal_minor', 'total_minor'])
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(invoice.total_minor).toBe(2_401)
    const amounts = (invoice.lines as { amountMinor: number }[]).map((line) => line.amountMinor).sort()
    expect(amounts).toEqual(items.map((item) => item.unit_price_minor - item.discount_minor).sort())
    const shares = await db()
      .selectFrom('earning_shares')
      .select(['order_item_id', 'net_minor'])
      .where('order_id', '=', order.id)
      .execute()
    for (const item of items) {
      expect(shares.find((share) => share.order_item_id === item.id)?.net_minor).toBe(
        item.unit_price_minor - item.discount_minor,
      )
    }
    const admin = await callerAs(db(), await createUser(db(), { role: 'admin' }))
    const refunded = items.find((item) => item.course_id === c.id)!
    await admin.admin.orders.refund({ orderId: order.id, lineIds: [refunded.id], reference: 'BANK-RF-1' })
    const refund = await db()
      .selectFrom('refunds')
      .select('amount_minor')
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(refund.amount_minor).toBe(refunded.unit_price_minor - refunded.discount_minor)

    // The staff list shows the uses and revenue.
    const listed = (await editor.admin.coupons.list()).find((row) => row.code === code)
    expect(listed).toMatchObject({
      uses: 1,
      held: 0,
      revenue: [{ currency: 'USD', amountMinor: 2_401 - refund.amount_minor }],
    })
  })

  it('a cancelled order gives back its buyer’s per-customer use; the same mailbox counts as one customer', async () => {
    const editor = await staff()
    const creator = await createUser(db())
    const course = await ownedCourse(db(), creator.id, 4_000)
    const code = newCode()
    await editor.admin.coupons.create({
      code,
      kind: 'fixed',
      amountsOff: { USD: 1_000 },
      appliesTo: 'everything',
      maxUsesPerCustomer: 1,
    } as never)
    const mailbox = `buyer${codeSeq}@example.test`
    const buyer = await shopper(mailbox)
    await buyer.caller.cart.add({ kind: 'course', courseId: course.id })
    await buyer.caller.cart.applyCoupon({ code })
    const order = await bankOrder(buyer.user.id)
    expect(order.totalMinor).toBe(3_000)
    // Another account on the same mailbox (a +tag) is the same customer.
    const twin = await shopper(mailbox.replace('@', '+again@'))
    await twin.caller.cart.add({ kind: 'course', courseId: course.id })
    expect(await refusalOf(twin.caller.cart.applyCoupon({ code }))).toBe(COUPON_REFUSALS.alreadyUsed)
    await cancelByBuyer(db(), buyer.user.id, order.id)
    expect(await refusalOf(twin.caller.cart.applyCoupon({ code }))).toBe('accepted')
  })
})
