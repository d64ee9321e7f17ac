// The money rules of a staff refund and of Stripe's charge.refunded, pinned to the minor unit (issue 19): each line's
// share of the captured amount (tax included), the last open lines taking exactly what is left, the Stripe refund's
// amount, idempotency key and metadata, the order's refunded amount and status after, the credit notes, the audit
// record, the exact refusals (unknown order or line, a line refunded already, nothing left, a card payment Stripe
// cannot refund, Stripe refusing, a line or an order that cost nothing), which access a refund revokes (a course
// line, a plan's Premium and subscription, an ended subscription left as it ended), the Stripe calls a refund makes
// and its key (every line named, cut to Stripe's 255 characters), and a dashboard refund recorded once, flagged for
// line assignment only while it is partial and a line is still open.
import { createHash, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refundByStaff } from '../../../src-server/flows/stripe-refunds.ts'
import { EARLIER_REFUNDS_LINE } from '../../../src-server/orders/invoices.ts'
import { refundKey } from '../../../src-server/orders/refunds.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { PAYMENT_MESSAGES } from '../../../src-shared/schemas/cart.ts'
import { REFUND_MESSAGES } from '../../../src-shared/schemas/orders.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { buyerWhoHadAPlan, pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  // Stripe Tax on: the fake adds 20%, so a line's refund is its price plus its share of the tax.
  shop = await startPaymentsServer({ stripeTax: true })
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const staff = () => shopCaller(db(), admin, payments)
type Caller = Awaited<ReturnType<typeof shopCaller>>
const owned = async (caller: Caller) => (await caller.purchases.entitlements()).courseIds.sort()

const orderRow = (orderId: string) =>
  db()
    .selectFrom('orders')
    .select(['reference', 'status', 'captured_minor', 'refunded_minor', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()

const refundRows = (orderId: string) =>
  db()
    .selectFrom('refunds')
    .select([
      'amount_minor',
      'method',
      'reference',
      'stripe_refund_id',
      'reason',
      'created_by',
      'needs_line_assignment',
    ])
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('amount_minor')
    .execute()

/** The refunds Stripe holds for a payment, with the key each was made with, oldest first. */
const atStripe = (paymentIntent: string) =>
  [...fake.refunds.values()]
    .filter((refund) => refund.payment_intent === paymentIntent)
    .map((refund) => ({ amount: refund.amount, metadata: refund.metadata, key: fake.refundKeys.get(refund.id) }))

/** A buyer who paid by card (20% tax on top) for courses priced `prices`, through the webhook. */
async function paidCourses(prices: number[], offset: number) {
  const courses = await pricedCourses(db(), { count: prices.length, offset })
  for (const [i, course] of courses.entries()) {
    await db().updateTable('courses').set({ price_minor: prices[i]! }).where('id', '=', course.id).execute()
    course.price_minor = prices[i]!
  }
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, payments)
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const orderId = await payCartByCard(fake, caller)
  const detail = await (await staff()).admin.orders.detail({ id: orderId })
  // The order's lines in the courses' order.
  const lines = courses.map((course) => detail.lines.find((line) => line.title === course.title)!)
  const order = await orderRow(orderId)
  return { user, caller, courses, lines, orderId, paymentIntent: order.stripe_payment_intent_id! }
}

describe('a line refund of a taxed order', () => {
  /** Refunds the lines one by one in `order` (indexes into the prices); each line's refund by its price's index. */
  async function refundOneByOne(prices: number[], offset: number, order: number[]) {
    const { lines, orderId } = await paidCourses(prices, offset)
    const amounts: number[] = []
    for (const index of order) {
      const refund = await (await staff()).admin.orders.refund({ orderId, lineIds: [lines[index]!.id] })
      amounts[index] = refund.amountMinor
    }
    return { captured: (await orderRow(orderId)).captured_minor, amounts }
  }

  it("gives back the line's largest-remainder share of what was captured, whichever line goes first", async () => {
    // 3009 + 20% (602) = 3611. Exact shares 1200.066, 1202.4666, 1208.4669 (x 3611 / 3009): by largest remainder
    // 1200, 1202, 1209 (sum 3611). Rounded one by one (Math.round, before 2026-12-15) they were 1200, 1202, 1208 (sum
    // 3610), so the line refunded last got what was left and a line's refund depended on the order of refunds.
    const prices = [1000, 1002, 1007]
    const forwards = await refundOneByOne(prices, 0, [0, 1, 2])
    expect(forwards.captured).toBe(3611)
    expect(forwards.amounts).toEqual([1200, 1202, 1209])

    const backwards = await refundOneByOne(prices, 3, [2, 1, 0])
    expect(backwards.captured).toBe(3611)
    expect(backwards.amounts).toEqual([1200, 1202, 1209])
  })
})

describe('staff refunds: amounts, Stripe calls and records', () => {
  it('gives each line its share of the tax and the last line exactly what is left, with one Stripe key each', async () => {
    // 1000 + 1002 + 1007 + 20% tax (602) = 3611 captured, split over the lines by largest remainder: 1200, 1202, 1209
    // (exact 1200.07, 1202.47, 1208.47; each rounded on its own would leave a cent over).
    const { caller, courses, lines, orderId, paymentIntent } = await paidCourses([1000, 1002, 1007], 0)
    const before = await orderRow(orderId)
    expect(before).toMatchObject({ status: 'paid', captured_minor: 3611, refunded_minor: 0 })
    const [l1, l2, l3] = lines.map((line) => line!.id)

    const first = await (await staff()).admin.orders.refund({ orderId, lineIds: [l1!], reason: 'asked' })
    expect(first).toEqual({
      refundId: expect.any(String),
      amountMinor: 1200,
      status: 'partially_refunded',
      creditNoteNumber: expect.stringMatching(/^CN-\d{4}-\d{6}$/),
    })
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 1200 })
    // A staff refund names its lines: never flagged for line assignment.
    expect((await refundRows(orderId)).map((row) => row.needs_line_assignment)).toEqual([false])
    expect(await owned(caller)).toEqual([courses[1]!.id, courses[2]!.id].sort())

    // The same line named twice is one line.
    const second = await (await staff()).admin.orders.refund({ orderId, lineIds: [l2!, l2!] })
    expect(second).toMatchObject({ amountMinor: 1202, status: 'partially_refunded' })
    expect(await owned(caller)).toEqual([courses[2]!.id])

    // No lines named: every open line, for exactly what is left (3611 - 2402 = 1209, its share).
    const last = await (await staff()).admin.orders.refund({ orderId })
    expect(last).toMatchObject({ amountMinor: 1209, status: 'refunded' })
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', refunded_minor: 3611 })
    expect(await owned(caller)).toEqual([])

    // The lines ride along, so a refund whose answer is lost is still known by its charge.refunded.
    const metadata = (line: string) => ({ orderId, reference: before.reference, lines: line })
    expect(atStripe(paymentIntent)).toEqual([
      { amount: 1200, metadata: metadata(l1!), key: `refund-${orderId}-0-${l1}` },
      { amount: 1202, metadata: metadata(l2!), key: `refund-${orderId}-1200-${l2}` },
      { amount: 1209, metadata: metadata(l3!), key: `refund-${orderId}-2402-${l3}` },
    ])
    const stripeIds = [...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent).map((r) => r.id)
    expect(await refundRows(orderId)).toEqual(
      [
        [1200, 'asked'],
        [1202, null],
        [1209, null],
      ].map(([amount, reason], i) => ({
        amount_minor: amount,
        method: 'stripe',
        reference: stripeIds[i],
        stripe_refund_id: stripeIds[i],
        reason,
        created_by: admin.id,
        needs_line_assignment: false,
      })),
    )
    const items = await db()
      .selectFrom('order_items')
      .innerJoin('refunds', 'refunds.id', 'order_items.refund_id')
      .select(['order_items.id', 'refunds.amount_minor'])
      .where('order_items.order_id', '=', orderId)
      .execute()
    // Each line points at the refund that gave it back.
    expect(Object.fromEntries(items.map((item) => [item.id, item.amount_minor]))).toEqual({
      [l1!]: 1200,
      [l2!]: 1202,
      [l3!]: 1209,
    })

    const [listed] = await caller.purchases.orders()
    expect(listed?.creditNotes.map((note) => note.totalMinor)).toEqual([1200, 1202, 1209])
    const note = await caller.purchases.document({ kind: 'credit_note', id: listed!.creditNotes[2]!.id })
    expect(note.lines).toEqual([
      {
        title: courses[2]!.title,
        detail: lines[2]!.detail,
        quantity: 1,
        unitMinor: 1007,
        amountMinor: 1007,
        orderItemId: l3,
      },
    ])
    // Each credit note adds up: its lines at their prices, the tax they carried, their total (before 2026-12-15 the
    // tax row read 0 under a total that included it). The three notes give back the invoice's tax, 602, exactly.
    expect(note).toMatchObject({ subtotalMinor: 1007, taxLines: [{ name: 'Tax', amountMinor: 202 }], totalMinor: 1209 })
    const notes = await Promise.all(
      listed!.creditNotes.map((credit) => caller.purchases.document({ kind: 'credit_note', id: credit.id })),
    )
    expect(notes.map((credit) => [credit.subtotalMinor, credit.taxMinor])).toEqual([
      [1000, 200],
      [1002, 200],
      [1007, 202],
    ])
    const orderStatus = await db()
      .selectFrom('orders')
      .select('status_changed_by')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(orderStatus.status_changed_by).toBe(admin.id)

    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'entity_type', 'before', 'after'])
      .where('entity_id', '=', orderId)
      .where('action', '=', 'order.refund')
      .orderBy('created_at')
      .execute()
    expect(audit[1]).toEqual({
      action: 'order.refund',
      actor_id: admin.id,
      entity_type: 'order',
      before: { reference: before.reference, status: 'partially_refunded', refundedMinor: 1200 },
      after: {
        reference: before.reference,
        status: 'partially_refunded',
        refundedMinor: 2402,
        lines: [courses[1]!.title],
        creditNote: second.creditNoteNumber,
      },
    })
    expect(audit).toHaveLength(3)
  })

  it('names every line of a refund in its Stripe key, and asks Stripe nothing else when the payment is known', async () => {
    // 1000 + 2000 + 3000 + 20% tax = 7200: the first two lines' share is 3000 × 7200 / 6000 = 3600.
    const { lines, orderId, paymentIntent } = await paidCourses([1000, 2000, 3000], 16)
    const [l1, l2] = [lines[0]!.id, lines[1]!.id]
    const before = fake.calls.length
    const refund = await (await staff()).admin.orders.refund({ orderId, lineIds: [l2, l1] })
    expect(refund).toMatchObject({ amountMinor: 3600, status: 'partially_refunded' })
    // The payment intent was kept at payment: the refund is the one call to Stripe (no look-up of the session).
    expect(fake.calls.slice(before)).toEqual(['POST /v1/refunds'])
    // The lines in the order's order (by id), each id whole and apart from the next.
    expect(atStripe(paymentIntent).map((r) => [r.amount, r.key])).toEqual([
      [3600, `refund-${orderId}-0-${[l1, l2].sort().join('.')}`],
    ])
  })

  it('names the lines of a refund of many lines by their hash, within the 255 characters Stripe accepts', async () => {
    // Six lines: the key naming them all would be 267 characters, which Stripe (and the fake) refuses; cut to 255 it
    // would be the key of any other set of lines starting with the same five.
    const { caller, lines, orderId, paymentIntent } = await paidCourses([1000, 1000, 1000, 1000, 1000, 1000], 21)
    const ids = lines
      .map((line) => line!.id)
      .sort()
      .join('.')
    expect(`refund-${orderId}-0-${ids}`).toHaveLength(267)
    const key = `refund-${orderId}-0-${createHash('sha256').update(ids).digest('hex')}`
    const refund = await (await staff()).admin.orders.refund({ orderId })
    expect(refund).toMatchObject({ amountMinor: 7200, status: 'refunded' })
    expect(atStripe(paymentIntent).map((r) => [r.amount, r.key])).toEqual([[7200, key]])
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', refunded_minor: 7200 })
    expect(await owned(caller)).toEqual([])
  })

  it('refuses a line that cost nothing, and any line of a free order: nothing to give back, Stripe not asked', async () => {
    const [paid] = await pricedCourses(db(), { offset: 19 })
    const free = await pricedCourses(db(), { free: true, count: 3 })
    const caller = await shopCaller(db(), await createUser(db()), payments)
    await caller.cart.add({ kind: 'course', courseId: paid!.id })
    await caller.cart.add({ kind: 'course', courseId: free[0]!.id })
    const orderId = await payCartByCard(fake, caller)
    const freeLine = (await (await staff()).admin.orders.detail({ id: orderId })).lines.find(
      (line) => line.title === free[0]!.title,
    )!
    expect(freeLine.priceMinor).toBe(0)
    const nothing = { code: 'CONFLICT', message: 'Nothing left to refund on this order' }
    const before = fake.calls.length
    await expect((await staff()).admin.orders.refund({ orderId, lineIds: [freeLine.id] })).rejects.toMatchObject(
      nothing,
    )
    expect(fake.calls.slice(before)).toEqual([])
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', refunded_minor: 0 })
    expect(await refundRows(orderId)).toEqual([])
    expect(await owned(caller)).toEqual([paid!.id, free[0]!.id].sort())

    // A free order (nothing captured): neither the whole of it nor one of its two lines, even with a reference.
    const taker = await shopCaller(db(), await createUser(db()), payments)
    for (const course of free.slice(1)) await taker.cart.add({ kind: 'course', courseId: course.id })
    const started = await taker.payments.start({ currency: 'USD', method: 'card' })
    expect(started).toMatchObject({ method: 'free', totalMinor: 0 })
    const freeLines = (await (await staff()).admin.orders.detail({ id: started.orderId })).lines
    expect(freeLines.map((line) => line.priceMinor)).toEqual([0, 0])
    for (const lineIds of [undefined, [freeLines[0]!.id]]) {
      await expect(
        (await staff()).admin.orders.refund({ orderId: started.orderId, lineIds, reference: 'none' }),
      ).rejects.toMatchObject(nothing)
    }
    expect(await orderRow(started.orderId)).toMatchObject({ status: 'paid', captured_minor: 0, refunded_minor: 0 })
    expect(await refundRows(started.orderId)).toEqual([])
    expect(await owned(taker)).toEqual(
      free
        .slice(1)
        .map((course) => course.id)
        .sort(),
    )
  })

  it('refuses an unknown order or line, a line refunded already and an order not paid, refunding nothing', async () => {
    const { lines, orderId, paymentIntent } = await paidCourses([2000, 3000], 3)
    const other = await paidCourses([1500], 5)
    const admin = await staff()
    await expect(admin.admin.orders.refund({ orderId: randomUUID() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Order not found',
    })
    for (const lineIds of [[randomUUID()], [lines[0]!.id, other.lines[0]!.id]]) {
      await expect(admin.admin.orders.refund({ orderId, lineIds })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Order line not found',
      })
    }
    expect(await refundRows(orderId)).toEqual([])

    // 2000 × 6000 / 5000 = 2400 for the first line.
    expect(await admin.admin.orders.refund({ orderId, lineIds: [lines[0]!.id] })).toMatchObject({ amountMinor: 2400 })
    await expect(admin.admin.orders.refund({ orderId, lineIds: [lines[0]!.id, lines[1]!.id] })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This line has already been refunded',
    })
    expect(atStripe(paymentIntent).map((refund) => refund.amount)).toEqual([2400])
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 2400 })

    // A card order not paid yet.
    const buyer = await shopCaller(db(), await createUser(db()), payments)
    await buyer.cart.add({ kind: 'course', courseId: other.courses[0]!.id })
    const pending = await buyer.payments.start({ currency: 'USD', method: 'card' })
    await expect(admin.admin.orders.refund({ orderId: pending.orderId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Only a paid order can be refunded',
    })
  })

  it('a PayPal refund without a reference is refused on that field', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    const [course] = await pricedCourses(db(), { count: 1, offset: 6 })
    await caller.cart.add({ kind: 'course', courseId: course!.id })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    await (await staff()).admin.orders.markPaid({ id: started.orderId })
    await expect((await staff()).admin.orders.refund({ orderId: started.orderId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Please enter the reference of the PayPal or bank refund',
      cause: expect.objectContaining({ kind: 'invalid', field: 'reference' }),
    })
    expect(await refundRows(started.orderId)).toEqual([])
  })

  it('refuses a card payment Stripe cannot refund: no payment found, or no Stripe configured', async () => {
    const { orderId } = await paidCourses([1200], 7)
    const notRefundable = { kind: 'precondition', message: 'This card payment cannot be refunded through Stripe' }
    await expect(refundByStaff(db(), null, { orderId }, { id: admin.id, email: admin.email })).rejects.toMatchObject(
      notRefundable,
    )
    await db()
      .updateTable('orders')
      .set({ stripe_payment_intent_id: null, stripe_session_id: null })
      .where('id', '=', orderId)
      .execute()
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'This card payment cannot be refunded through Stripe',
    })
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', refunded_minor: 0 })
    expect(await refundRows(orderId)).toEqual([])
  })

  it("Stripe made the refund but its answer was lost, and its charge.refunded came first: staff's retry pays nothing twice", async () => {
    const { caller, courses, lines, orderId, paymentIntent } = await paidCourses([1500, 1500], 20)
    const [first, second] = lines.map((line) => line!.id)
    // The refund reaches Stripe and is made; the answer never comes back (the SDK's timeout).
    const lost: PaymentsConfig['stripe'] = {
      ...payments.stripe!,
      async createRefund(params, key) {
        await payments.stripe!.createRefund(params, key)
        throw new Error('Request was retried but timed out')
      },
    }
    const actor = { id: admin.id, email: admin.email }
    // Stripe did not answer: the message does not claim that nothing was refunded.
    await expect(refundByStaff(db(), lost, { orderId, lineIds: [first!] }, actor)).rejects.toMatchObject({
      kind: 'upstream',
      message: PAYMENT_MESSAGES.refundUnconfirmed,
    })
    // Stripe's event for that refund names the line (the refund's metadata): it is recorded for that line.
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 1800 })
    expect((await refundRows(orderId)).map((row) => row.needs_line_assignment)).toEqual([false])
    expect(await owned(caller)).toEqual([courses[1]!.id])

    // Staff click Refund again on the same line: already refunded, and Stripe is not asked again.
    await expect((await staff()).admin.orders.refund({ orderId, lineIds: [first!] })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: REFUND_MESSAGES.lineRefunded,
    })
    expect(atStripe(paymentIntent).map((refund) => refund.amount)).toEqual([1800])
    expect(await (await staff()).admin.orders.refund({ orderId, lineIds: [second!] })).toMatchObject({
      amountMinor: 1800,
      status: 'refunded',
    })
    expect(atStripe(paymentIntent).map((refund) => refund.amount)).toEqual([1800, 1800])
  })

  it('a server error from Stripe is no refusal: the message does not say nothing was refunded', async () => {
    const { lines, orderId } = await paidCourses([1300], 9)
    // Stripe makes the refund, then answers 500 (its result indeterminate, as Stripe's documentation says).
    const failing: PaymentsConfig['stripe'] = {
      ...payments.stripe!,
      async createRefund(params, key) {
        await payments.stripe!.createRefund(params, key)
        throw Object.assign(new Error('An unknown error occurred'), { statusCode: 500 })
      },
    }
    await expect(
      refundByStaff(db(), failing, { orderId, lineIds: [lines[0]!.id] }, { id: admin.id, email: admin.email }),
    ).rejects.toMatchObject({ kind: 'upstream', message: PAYMENT_MESSAGES.refundUnconfirmed })
  })

  it('when Stripe refuses the refund, nothing is recorded and the buyer keeps the course', async () => {
    const { caller, courses, orderId, paymentIntent } = await paidCourses([1000], 8)
    // Stripe already gave 100 back (its event not here yet): the whole 1200 is more than Stripe has left.
    fake.dashboardRefund(paymentIntent, 100)
    const refused = refundByStaff(db(), payments.stripe, { orderId }, { id: admin.id, email: admin.email })
    await expect(refused).rejects.toMatchObject({
      kind: 'upstream',
      message: 'Stripe could not make the refund. Nothing was refunded; please try again.',
      cause: expect.objectContaining({ message: expect.stringContaining('greater than unrefunded amount') }),
    })
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'Stripe could not make the refund. Nothing was refunded; please try again.',
    })
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', refunded_minor: 0 })
    expect(await refundRows(orderId)).toEqual([])
    expect(await owned(caller)).toEqual([courses[0]!.id])
  })
})

/** The user checks out a monthly plan and one course by card in one checkout, paid on the fake Stripe. */
async function planAndCourseByCard(user: TestUser, planId: string, offset: number) {
  const caller = await shopCaller(db(), user, payments)
  const [course] = await pricedCourses(db(), { count: 1, offset })
  await caller.cart.add({ kind: 'plan', planId, billingCycle: 'monthly' })
  await caller.cart.add({ kind: 'course', courseId: course!.id })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  const session = fake.completeSession(sessionIdOf(started.url))
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  const detail = await (await staff()).admin.orders.detail({ id: started.orderId })
  const courseLine = detail.lines.find((line) => line.title === course!.title)!
  const planLine = detail.lines.find((line) => line.id !== courseLine.id)!
  return { user, caller, course: course!, orderId: started.orderId, courseLine, planLine, session }
}

describe('refunding a plan bought with a course', () => {
  /** A member who had a plan before (no trial) and paid the Pro plan and one course by card in one checkout. */
  async function paidPlanAndCourse(offset: number) {
    return planAndCourseByCard(await buyerWhoHadAPlan(db()), 'pro', offset)
  }
  const subscriptionOf = (orderId: string) =>
    db()
      .selectFrom('subscriptions')
      .select(['id', 'status', 'ended_at', 'end_reason', 'cancel_at_period_end'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()

  it('a course line keeps the plan running; the plan line ends it at Stripe first, then here with its Premium', async () => {
    const { user, caller, orderId, courseLine, planLine, session } = await paidPlanAndCourse(9)
    const stripeSubscription = session.subscription!
    const intent = (await orderRow(orderId)).stripe_payment_intent_id!
    expect(intent).toMatch(/^pi_/)
    // As if the payment's look-up had failed at payment: the refund asks Stripe for it through the session.
    await db().updateTable('orders').set({ stripe_payment_intent_id: null }).where('id', '=', orderId).execute()

    const first = await (await staff()).admin.orders.refund({ orderId, lineIds: [courseLine.id] })
    expect(first.status).toBe('partially_refunded')
    expect((await orderRow(orderId)).stripe_payment_intent_id).toBe(intent)
    expect(atStripe(intent).map((refund) => [refund.amount, refund.key])).toEqual([
      [first.amountMinor, `refund-${orderId}-0-${courseLine.id}`],
    ])
    expect(fake.billing.subscriptions.get(stripeSubscription)?.status).toBe('active')
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'active', ended_at: null, end_reason: null })
    expect(await isPremium(db(), user)).toBe(true)
    expect(await owned(caller)).toEqual([])

    // Stripe cannot end the subscription now: nothing is refunded, the plan stays.
    fake.failNextCancel()
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'Stripe could not make the refund. Nothing was refunded; please try again.',
    })
    expect(atStripe(intent)).toHaveLength(1)
    expect(await isPremium(db(), user)).toBe(true)

    const rest = await (await staff()).admin.orders.refund({ orderId })
    const order = await orderRow(orderId)
    expect(rest).toMatchObject({ status: 'refunded', amountMinor: order.captured_minor - first.amountMinor })
    expect(order).toMatchObject({ status: 'refunded', refunded_minor: order.captured_minor })
    expect(atStripe(intent).map((refund) => [refund.amount, refund.key])).toEqual([
      [first.amountMinor, `refund-${orderId}-0-${courseLine.id}`],
      [rest.amountMinor, `refund-${orderId}-${first.amountMinor}-${planLine.id}`],
    ])
    expect(fake.billing.subscriptions.get(stripeSubscription)?.status).toBe('canceled')
    expect(await subscriptionOf(orderId)).toMatchObject({
      status: 'cancelled',
      ended_at: expect.any(Date),
      // A refunded plan says so (issue 38: "Refunded on DATE").
      end_reason: 'refund',
      cancel_at_period_end: false,
    })
    const grants = await db()
      .selectFrom('access_grants')
      .select(['kind', 'revoked_reason'])
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is not', null)
      .orderBy('kind')
      .execute()
    expect(grants).toEqual([
      { kind: 'course', revoked_reason: 'refund' },
      { kind: 'premium', revoked_reason: 'refund' },
    ])
    expect(await isPremium(db(), user)).toBe(false)
  })

  it('the plan refunded first: refunding the course last leaves its ended subscription as it ended', async () => {
    const { orderId, courseLine, planLine, session } = await paidPlanAndCourse(20)
    const first = await (await staff()).admin.orders.refund({ orderId, lineIds: [planLine.id] })
    expect(first.status).toBe('partially_refunded')
    expect(fake.billing.subscriptions.get(session.subscription!)?.status).toBe('canceled')
    // Stripe's customer.subscription.deleted arrives.
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    const ended = await subscriptionOf(orderId)
    expect(ended).toMatchObject({ status: 'cancelled', end_reason: 'refund', cancel_at_period_end: false })
    expect(ended.ended_at).toBeInstanceOf(Date)

    const before = fake.calls.length
    const rest = await (await staff()).admin.orders.refund({ orderId, lineIds: [courseLine.id] })
    expect(rest.status).toBe('refunded')
    // Nothing left to end at Stripe, and here the subscription keeps the end it had.
    expect(fake.calls.slice(before)).toEqual(['POST /v1/refunds'])
    expect(await subscriptionOf(orderId)).toEqual(ended)
  })

  it('a course line whose refund takes the last of the money gives the plan back too: ended at Stripe, line refunded', async () => {
    const { user, orderId, courseLine, planLine, session } = await paidPlanAndCourse(25)
    const intent = (await orderRow(orderId)).stripe_payment_intent_id!
    const { captured_minor: captured } = await orderRow(orderId)
    // A partial refund made in the Stripe dashboard names no line (flagged for staff): all but 1.00 of the money.
    fake.dashboardRefund(intent, captured - 100)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(intent))).toBe(200)
    expect(await isPremium(db(), user)).toBe(true)

    // Staff then refund the course line: its share is more than is left, so it gives back the last 1.00, and with
    // it the whole order (every line loses its access): the plan too, which must then stop renewing at Stripe.
    const last = await (await staff()).admin.orders.refund({ orderId, lineIds: [courseLine.id] })
    expect(last).toMatchObject({ amountMinor: 100, status: 'refunded' })
    expect(await isPremium(db(), user)).toBe(false)
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'cancelled', end_reason: 'refund' })
    expect(fake.billing.subscriptions.get(session.subscription!)?.status).toBe('canceled')
    // Both lines read as given back (by the refund that took the last of the money), as the order does.
    const detail = await (await staff()).admin.orders.detail({ id: orderId })
    expect(detail.lines.map((line) => [line.id, line.refunded]).sort()).toEqual(
      [
        [courseLine.id, true],
        [planLine.id, true],
      ].sort(),
    )
  })
})

describe('refunding the plan of a checkout that started a free trial, bought with a course', () => {
  /** A first-time member (a free trial) who checked out the Basic plan and one course by card in one checkout. */
  async function trialPlanAndCourse(offset: number) {
    return planAndCourseByCard(await createUser(db()), 'basic', offset)
  }

  const subscriptionOf = (orderId: string) =>
    db()
      .selectFrom('subscriptions')
      .select(['status', 'ended_at'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()

  it('Stripe took only the course: the plan line gives back nothing of it; the course line gives back all of it', async () => {
    const { user, caller, course, orderId, courseLine, planLine, session } = await trialPlanAndCourse(24)
    // As Stripe does: the trial's plan is charged nothing at checkout, the course with its 20% tax.
    const coursePaid = course.price_minor + Math.round(course.price_minor * 0.2)
    expect(session.amount_total).toBe(coursePaid)
    const order = await orderRow(orderId)
    expect(order).toMatchObject({ status: 'paid', captured_minor: coursePaid })
    const intent = order.stripe_payment_intent_id!

    // The order's invoice shows what was taken: the plan in its free trial at 0, the course at its price.
    const invoice = await db()
      .selectFrom('invoices')
      .select(['id', 'subtotal_minor', 'total_minor'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(invoice).toMatchObject({ subtotal_minor: course.price_minor, total_minor: coursePaid })
    const document = await caller.purchases.document({ kind: 'invoice', id: invoice.id })
    expect(document.lines.find((line) => line.title === planLine.title)).toMatchObject({
      detail: expect.stringContaining('Free trial'),
      amountMinor: 0,
    })

    // The plan line paid nothing: refunding it alone is refused, and nothing of the course's money leaves.
    await expect((await staff()).admin.orders.refund({ orderId, lineIds: [planLine.id] })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: REFUND_MESSAGES.paidNothing,
    })
    expect(atStripe(intent)).toEqual([])
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', refunded_minor: 0 })
    expect(await refundRows(orderId)).toEqual([])
    expect(await owned(caller)).toEqual([course.id])

    // The course line is what was paid: refunding it gives back everything taken, tax included.
    const refund = await (await staff()).admin.orders.refund({ orderId, lineIds: [courseLine.id] })
    expect(refund.amountMinor).toBe(coursePaid)
    expect(atStripe(intent).map((row) => row.amount)).toEqual([coursePaid])
    // Not Refunded: the plan line in its trial was not given back (it runs on).
    expect(refund.status).toBe('partially_refunded')
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: coursePaid })
    expect(await owned(caller)).toEqual([])
    // All the money is back, but the free trial cost none of it: the plan runs on, here and at Stripe.
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'trialing', ended_at: null })
    expect(fake.billing.subscriptions.get(session.subscription!)?.status).toBe('trialing')
    expect(await isPremium(db(), user)).toBe(true)
  })
})

describe('charge.refunded: refunds made in the Stripe dashboard', () => {
  /** The charge Stripe sends for `paymentIntent`, listing one more refund that the fake does not hold. */
  function chargeWithExtraRefund(paymentIntent: string, extra: { id: string; amount: number }) {
    const charge = fake.chargeOf(paymentIntent) as { refunds: { data: unknown[] } } & Record<string, unknown>
    const data = [{ ...(charge.refunds.data[0] as object), ...extra }, ...charge.refunds.data]
    return { ...charge, refunds: { ...charge.refunds, data } }
  }
  const lineRefunds = async (orderId: string) =>
    Object.fromEntries(
      (await db().selectFrom('order_items').select(['id', 'refund_id']).where('order_id', '=', orderId).execute()).map(
        (item) => [item.id, item.refund_id],
      ),
    )
  const refundIdOf = async (orderId: string, stripeRefundId: string) =>
    (
      await db()
        .selectFrom('refunds')
        .select('id')
        .where('order_id', '=', orderId)
        .where('stripe_refund_id', '=', stripeRefundId)
        .executeTakeFirstOrThrow()
    ).id

  it('a partial one is flagged and names no line; the one that takes what is left takes the open lines', async () => {
    // 1000 + 2000 + 20% = 3600 captured.
    const { caller, courses, lines, orderId, paymentIntent } = await paidCourses([1000, 2000], 10)
    const [l1, l2] = [lines[0]!.id, lines[1]!.id]
    const dashboard = fake.dashboardRefund(paymentIntent, 500)
    // A refund of nothing, listed with it, is no refund.
    const zero = chargeWithExtraRefund(paymentIntent, { id: 're_test_zero_amount', amount: 0 })
    expect(await fake.deliver('charge.refunded', zero)).toBe(200)
    expect(await refundRows(orderId)).toEqual([
      {
        amount_minor: 500,
        method: 'stripe',
        reference: dashboard.id,
        stripe_refund_id: dashboard.id,
        reason: 'Refunded in the Stripe dashboard',
        created_by: null,
        needs_line_assignment: true,
      },
    ])
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 500 })
    expect(await lineRefunds(orderId)).toEqual({ [l1]: null, [l2]: null })
    expect(await owned(caller)).toEqual(courses.map((course) => course.id).sort())
    const [listed] = await caller.purchases.orders()
    const note = await caller.purchases.document({ kind: 'credit_note', id: listed!.creditNotes[0]!.id })
    // Its tax is its share in the invoice's proportion (500 × 600 / 3600 = 83.33, by largest remainder 83).
    expect(note).toMatchObject({
      lines: [{ title: 'Refund', quantity: 1, unitMinor: 417, amountMinor: 417 }],
      subtotalMinor: 417,
      taxLines: [{ name: 'Tax', amountMinor: 83 }],
      taxMinor: 83,
      totalMinor: 500,
    })

    // Staff refund the first line (1000 × 3600 / 3000 = 1200); 1900 is left.
    expect(await (await staff()).admin.orders.refund({ orderId, lineIds: [l1] })).toMatchObject({ amountMinor: 1200 })
    // The dashboard refunds exactly what is left: it takes the one open line and closes everything.
    const rest = fake.dashboardRefund(paymentIntent, 1900)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', refunded_minor: 3600 })
    const restId = await refundIdOf(orderId, rest.id)
    expect((await lineRefunds(orderId))[l2]).toBe(restId)
    expect((await refundRows(orderId)).map((row) => [row.amount_minor, row.needs_line_assignment])).toEqual([
      [500, false],
      [1200, false],
      [1900, false],
    ])
    const [after] = await caller.purchases.orders()
    const restNote = after!.creditNotes.find((credit) => credit.totalMinor === 1900)!
    // The tax left (600 − 83 − 200) and the line at its price, less what the first refund took of it: the lines and
    // the tax add up to the total.
    expect(await caller.purchases.document({ kind: 'credit_note', id: restNote.id })).toMatchObject({
      lines: [
        {
          title: courses[1]!.title,
          detail: lines[1]!.detail,
          quantity: 1,
          unitMinor: 2000,
          amountMinor: 2000,
          orderItemId: l2,
        },
        { title: EARLIER_REFUNDS_LINE, quantity: 1, unitMinor: -417, amountMinor: -417 },
      ],
      subtotalMinor: 1583,
      taxMinor: 317,
      totalMinor: 1900,
    })
    expect(await owned(caller)).toEqual([])

    // Stripe lists one more refund when nothing is left: not recorded.
    const late = chargeWithExtraRefund(paymentIntent, { id: 're_test_after_full', amount: 100 })
    expect(await fake.deliver('charge.refunded', late)).toBe(200)
    expect(await refundRows(orderId)).toHaveLength(3)
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', refunded_minor: 3600 })
  })

  it('a staff refund of everything left clears the flag of a partial dashboard refund', async () => {
    const { caller, orderId, paymentIntent } = await paidCourses([1500, 1500], 12)
    fake.dashboardRefund(paymentIntent, 300)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect((await refundRows(orderId)).map((row) => row.needs_line_assignment)).toEqual([true])
    const rest = await (await staff()).admin.orders.refund({ orderId })
    expect(rest).toMatchObject({ amountMinor: 3300, status: 'refunded' })
    expect((await refundRows(orderId)).map((row) => [row.amount_minor, row.needs_line_assignment])).toEqual([
      [300, false],
      [3300, false],
    ])
    expect(await owned(caller)).toEqual([])
  })

  it('when no line is left open but money is, a staff refund has nothing to give back, a dashboard one nothing to assign', async () => {
    const { lines, orderId, paymentIntent } = await paidCourses([1000, 1000], 14)
    fake.dashboardRefund(paymentIntent, 400)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    const flagged = (await (await staff()).admin.orders.detail({ id: orderId })).refunds[0]!
    await (await staff()).admin.orders.assignRefundLines({
      refundId: flagged.id,
      lineIds: lines.map((line) => line!.id),
    })
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 400 })
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Nothing left to refund on this order',
    })
    expect(atStripe(paymentIntent).map((refund) => refund.amount)).toEqual([400])

    // Another partial refund in the dashboard: no line is open that it could have given back, so it is not flagged.
    const later = fake.dashboardRefund(paymentIntent, 100)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(
      (await refundRows(orderId)).map((row) => [row.reference, row.amount_minor, row.needs_line_assignment]),
    ).toEqual([
      [flagged.reference, 400, false],
      [later.id, 100, false],
    ])
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 500 })
  })
})

describe("refundKey: a refund attempt's idempotency key at Stripe", () => {
  const order = { id: '0b6c1c0e-2f7e-4a57-9d1e-3c1f2b9a8e11', refunded_minor: 1200 }
  const line = (n: number) => ({ id: `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000` })
  const hashed = (ids: string) => `refund-${order.id}-1200-${createHash('sha256').update(ids).digest('hex')}`

  it('names up to 255 characters of lines as they are, and a longer list by its hash', () => {
    const five = [1, 2, 3, 4, 5].map(line)
    const readable = `refund-${order.id}-1200-${five.map((l) => l.id).join('.')}`
    expect(readable).toHaveLength(233)
    expect(refundKey(order, five)).toBe(readable)
    // Exactly 255 stays readable (the order id padded to reach it); 256 is hashed.
    const longOrder = { id: `${order.id}${'x'.repeat(22)}`, refunded_minor: 1200 }
    const at255 = `refund-${longOrder.id}-1200-${five.map((l) => l.id).join('.')}`
    expect(at255).toHaveLength(255)
    expect(refundKey(longOrder, five)).toBe(at255)
    const at256 = { id: `${longOrder.id}x`, refunded_minor: 1200 }
    expect(refundKey(at256, five)).toBe(
      `refund-${at256.id}-1200-${createHash('sha256')
        .update(five.map((l) => l.id).join('.'))
        .digest('hex')}`,
    )
  })

  it('gives two long line lists that start alike different keys', () => {
    const six = [1, 2, 3, 4, 5, 6].map(line)
    const seven = [...six, line(7)]
    expect(refundKey(order, six)).toBe(hashed(six.map((l) => l.id).join('.')))
    expect(refundKey(order, seven)).toBe(hashed(seven.map((l) => l.id).join('.')))
    expect(refundKey(order, six)).not.toBe(refundKey(order, seven))
  })
})
