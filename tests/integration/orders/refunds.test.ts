// Refunds: staff refund chosen lines or a whole order (card through Stripe's refund API with an idempotency key,
// PayPal and bank by hand with a reference); exactly the refunded lines lose access; refunds never exceed what was
// captured, even when 10 race; Partially refunded / Refunded; credit note, buyer e-mail and audit record;
// charge.refunded from the dashboard is reconciled without double counting; disputes withhold and restore access.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt, whileRowHeld } from '../../support/race.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const staff = () => shopCaller(db(), admin, payments)
/** A buyer who paid for `count` courses by card (through the webhook) or by a manual rail confirmed by staff. */
async function paidOrder(count: number, offset: number, method: 'card' | 'paypal' | 'bank_transfer' = 'card') {
  const user = await createUser(db())
  const caller = await shopCaller(db(), user, payments)
  const courses = await pricedCourses(db(), { count, offset })
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const started = await caller.payments.start({ currency: 'USD', method })
  if (started.method === 'card') {
    await fake.deliver('checkout.session.completed', fake.completeSession(sessionIdOf(started.url)))
  } else {
    await (await staff()).admin.orders.markPaid({ id: started.orderId })
  }
  const detail = await (await staff()).admin.orders.detail({ id: started.orderId })
  const paymentIntent = (
    await db()
      .selectFrom('orders')
      .select('stripe_payment_intent_id')
      .where('id', '=', started.orderId)
      .executeTakeFirstOrThrow()
  ).stripe_payment_intent_id
  return { user, caller, courses, orderId: started.orderId, lines: detail.lines, paymentIntent }
}

const owned = async (caller: Awaited<ReturnType<typeof shopCaller>>) =>
  (await caller.purchases.entitlements()).courseIds.sort()

describe('staff refunds', () => {
  it('refunds one line of a two-course card order: that course closes, the other stays; then the rest', async () => {
    const { user, caller, courses, orderId, lines, paymentIntent } = await paidOrder(2, 0)
    const [first, second] = courses
    const firstLine = lines.find((line) => line.title === first!.title)!
    const refund = await (await staff()).admin.orders.refund({ orderId, lineIds: [firstLine.id], reason: 'asked' })
    expect(refund).toMatchObject({ amountMinor: first!.price_minor, status: 'partially_refunded' })
    expect(refund.creditNoteNumber).toMatch(/^CN-\d{4}-\d{6}$/)
    expect(await owned(caller)).toEqual([second!.id])
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent)).toHaveLength(1)

    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ status: 'partially_refunded', refundedMinor: first!.price_minor })
    expect(order?.creditNotes).toEqual([
      { id: expect.any(String), number: refund.creditNoteNumber, totalMinor: first!.price_minor },
    ])
    const note = await caller.purchases.document({ kind: 'credit_note', id: order!.creditNotes[0]!.id })
    expect(note).toMatchObject({ invoiceNumber: order!.invoice!.number, lines: [{ title: first!.title }] })
    const mail = await db()
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', user.email)
      .where('kind', '=', 'order_refunded')
      .execute()
    expect(mail).toHaveLength(1)
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('entity_id', '=', orderId)
      .execute()
    expect(audit).toEqual([{ action: 'order.refund', actor_email: admin.email }])

    // The same line again is refused; the rest of the order refunds it fully.
    await expect((await staff()).admin.orders.refund({ orderId, lineIds: [firstLine.id] })).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    const rest = await (await staff()).admin.orders.refund({ orderId })
    expect(rest).toMatchObject({ amountMinor: second!.price_minor, status: 'refunded' })
    expect(await owned(caller)).toEqual([])
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('records PayPal and bank refunds by hand, and wants their reference', async () => {
    const { caller, orderId } = await paidOrder(1, 2, 'paypal')
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Please enter the reference of the PayPal or bank refund',
    })
    const refund = await (await staff()).admin.orders.refund({ orderId, reference: 'PAYPAL-REF-1' })
    expect(refund.status).toBe('refunded')
    const detail = await (await staff()).admin.orders.detail({ id: orderId })
    expect(detail.refunds).toEqual([
      expect.objectContaining({ method: 'manual', reference: 'PAYPAL-REF-1', amountMinor: refund.amountMinor }),
    ])
    expect(await owned(caller)).toEqual([])
  })

  it('lets only admins refund', async () => {
    const { orderId } = await paidOrder(1, 3, 'bank_transfer')
    for (const role of ['customer', 'viewer', 'editor'] as const) {
      const caller = await shopCaller(db(), await createUser(db(), { role }), payments)
      await expect(caller.admin.orders.refund({ orderId, reference: 'x' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      })
    }
  })

  raceIt('never refunds more than was captured when 10 refunds of the same order race', async () => {
    const { caller, orderId, lines, paymentIntent } = await paidOrder(2, 4)
    // The callers are made first and the order row is held while the ten refunds start, so they truly meet at it.
    const callers = await Promise.all(Array.from({ length: 10 }, () => staff()))
    const attempts = await whileRowHeld(db(), 'orders', orderId, () =>
      Promise.allSettled(
        callers.map((caller, i) =>
          i % 2 === 0
            ? caller.admin.orders.refund({ orderId })
            : caller.admin.orders.refund({ orderId, lineIds: [lines[0]!.id] }),
        ),
      ),
    )
    const order = await db()
      .selectFrom('orders')
      .select(['captured_minor', 'refunded_minor', 'status'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    const recorded = await db().selectFrom('refunds').select('amount_minor').where('order_id', '=', orderId).execute()
    const atStripe = [...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent)
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
    expect(order.refunded_minor).toBe(order.captured_minor)
    expect(sum(recorded.map((r) => r.amount_minor))).toBe(order.captured_minor)
    expect(sum(atStripe.map((r) => r.amount))).toBe(order.captured_minor)
    expect(order.status).toBe('refunded')
    const succeeded = attempts.filter((attempt) => attempt.status === 'fulfilled')
    expect(succeeded.length).toBeGreaterThanOrEqual(1)
    expect(succeeded.length).toBeLessThanOrEqual(2)
    expect(await owned(caller)).toEqual([])
  })

  raceIt('refunds two lines at once: the second gives back what is left, the order ends Refunded', async () => {
    const { caller, orderId, lines, paymentIntent } = await paidOrder(2, 16)
    // Each refund names its own line, so their Stripe keys differ and only the order lock makes them take turns:
    // without it both read nothing refunded yet and the later write overwrites the earlier one's refunded amount.
    const callers = await Promise.all(lines.map(() => staff()))
    const results = await whileRowHeld(db(), 'orders', orderId, () =>
      Promise.all(callers.map((staffer, i) => staffer.admin.orders.refund({ orderId, lineIds: [lines[i]!.id] }))),
    )
    expect(results.map((result) => result.status).sort()).toEqual(['partially_refunded', 'refunded'])
    const order = await db()
      .selectFrom('orders')
      .select(['captured_minor', 'refunded_minor', 'status'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order.status).toBe('refunded')
    expect(order.refunded_minor).toBe(order.captured_minor)
    const recorded = await db().selectFrom('refunds').select('amount_minor').where('order_id', '=', orderId).execute()
    expect(recorded).toHaveLength(2)
    const atStripe = [...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent)
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
    expect(sum(recorded.map((r) => r.amount_minor))).toBe(order.captured_minor)
    expect(sum(atStripe.map((r) => r.amount))).toBe(order.captured_minor)
    expect(await owned(caller)).toEqual([])
  })
})

describe('charge.refunded', () => {
  it('records a dashboard refund once and skips refunds made here, whatever the order of events', async () => {
    const { caller, courses, orderId, paymentIntent } = await paidOrder(2, 6)
    const ours = await (await staff()).admin.orders.refund({
      orderId,
      lineIds: [(await (await staff()).admin.orders.detail({ id: orderId })).lines[0]!.id],
    })
    // Stripe reports our refund: nothing new.
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent!))).toBe(200)
    let refunds = await db().selectFrom('refunds').select('amount_minor').where('order_id', '=', orderId).execute()
    expect(refunds).toHaveLength(1)

    // A partial dashboard refund: recorded for its amount; access unchanged (no lines named).
    fake.dashboardRefund(paymentIntent!, 100)
    const charge = fake.chargeOf(paymentIntent!)
    expect(await fake.deliver('charge.refunded', charge)).toBe(200)
    expect(await fake.deliver('charge.refunded', charge)).toBe(200) // another event id, same charge
    refunds = await db().selectFrom('refunds').select('amount_minor').where('order_id', '=', orderId).execute()
    expect(refunds.map((r) => r.amount_minor).sort((a, b) => a - b)).toEqual(
      [100, ours.amountMinor].sort((a, b) => a - b),
    )
    expect((await caller.purchases.orders())[0]?.status).toBe('partially_refunded')
    expect((await owned(caller)).length).toBe(1)

    // The dashboard refunds the rest: the order is Refunded and the remaining course closes.
    const order = await db()
      .selectFrom('orders')
      .select(['captured_minor', 'refunded_minor'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    fake.dashboardRefund(paymentIntent!, order.captured_minor - order.refunded_minor)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent!))).toBe(200)
    const after = await db()
      .selectFrom('orders')
      .select(['captured_minor', 'refunded_minor', 'status'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(after).toMatchObject({ refunded_minor: after.captured_minor, status: 'refunded' })
    expect(await owned(caller)).toEqual([])
    expect(courses).toHaveLength(2)
  })
})

describe('disputes', () => {
  const dispute = (id: string, paymentIntent: string, status: string) => ({
    id,
    object: 'dispute',
    amount: 100,
    charge: `ch_${paymentIntent.slice(3)}`,
    payment_intent: paymentIntent,
    reason: 'fraudulent',
    status,
  })

  it('withholds the order’s access while disputed and alerts staff; a won dispute gives it back', async () => {
    const { caller, courses, orderId, paymentIntent } = await paidOrder(1, 8)
    expect(await fake.deliver('charge.dispute.created', dispute('dp_won', paymentIntent!, 'needs_response'))).toBe(200)
    expect(await fake.deliver('charge.dispute.created', dispute('dp_won', paymentIntent!, 'needs_response'))).toBe(200)
    expect((await caller.purchases.orders())[0]?.status).toBe('disputed')
    expect(await owned(caller)).toEqual([])
    const alerts = await db()
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('kind', '=', 'order_disputed')
      .where('subject', 'like', `%${(await caller.purchases.orders())[0]!.reference}%`)
      .execute()
    expect(alerts.map((row) => row.to_address)).toContain(admin.email)

    expect(await fake.deliver('charge.dispute.closed', dispute('dp_won', paymentIntent!, 'won'))).toBe(200)
    expect((await caller.purchases.orders())[0]?.status).toBe('paid')
    expect(await owned(caller)).toEqual([courses[0]!.id])
    expect((await caller.purchases.orders())[0]?.id).toBe(orderId)
  })

  it('a lost dispute keeps the access withheld; a closed event overtaking its created one is not undone', async () => {
    const lost = await paidOrder(1, 9)
    await fake.deliver('charge.dispute.created', dispute('dp_lost', lost.paymentIntent!, 'needs_response'))
    await fake.deliver('charge.dispute.closed', dispute('dp_lost', lost.paymentIntent!, 'lost'))
    expect((await lost.caller.purchases.orders())[0]?.status).toBe('disputed')
    expect(await owned(lost.caller)).toEqual([])

    const late = await paidOrder(1, 10)
    await fake.deliver('charge.dispute.closed', dispute('dp_late', late.paymentIntent!, 'won'))
    await fake.deliver('charge.dispute.created', dispute('dp_late', late.paymentIntent!, 'needs_response'))
    expect((await late.caller.purchases.orders())[0]?.status).toBe('paid')
    expect(await owned(late.caller)).toEqual([late.courses[0]!.id])
  })

  raceIt(
    'never gives back more than was captured when a lost dispute and a staff refund of one order race',
    async () => {
      const { orderId, paymentIntent } = await paidOrder(2, 18)
      const staffer = await staff()
      const orderRow = () =>
        db()
          .selectFrom('orders')
          .select(['captured_minor', 'refunded_minor'])
          .where('id', '=', orderId)
          .executeTakeFirstOrThrow()
      const { captured_minor: captured } = await orderRow()
      // The bank takes the whole payment back while staff refund it all: each reads what is left under the order's
      // lock, so whichever comes second finds nothing left to give.
      const lost = { ...dispute('dp_race', paymentIntent!, 'lost'), amount: captured }
      const [delivered] = await whileRowHeld(db(), 'orders', orderId, () =>
        Promise.allSettled([fake.deliver('charge.dispute.closed', lost), staffer.admin.orders.refund({ orderId })]),
      )
      expect(delivered).toEqual({ status: 'fulfilled', value: 200 })
      const recorded = await db()
        .selectFrom('refunds')
        .select(['amount_minor', 'method'])
        .where('order_id', '=', orderId)
        .execute()
      expect((await orderRow()).refunded_minor).toBe(captured)
      expect(recorded.reduce((sum, refund) => sum + refund.amount_minor, 0)).toBe(captured)
      expect(recorded).toHaveLength(1)
    },
  )

  it('a won dispute restores only what it took: a line refunded before stays closed', async () => {
    const { caller, courses, orderId, paymentIntent, lines } = await paidOrder(2, 11)
    await (await staff()).admin.orders.refund({ orderId, lineIds: [lines[0]!.id] })
    await fake.deliver('charge.dispute.created', dispute('dp_mixed', paymentIntent!, 'needs_response'))
    expect(await owned(caller)).toEqual([])
    await fake.deliver('charge.dispute.closed', dispute('dp_mixed', paymentIntent!, 'won'))
    expect((await caller.purchases.orders())[0]?.status).toBe('partially_refunded')
    const kept = courses.find((course) => course.title !== lines[0]!.title)!
    expect(await owned(caller)).toEqual([kept.id])
  })
})

describe('refund requests', () => {
  it('a buyer requests a refund of a course line once; staff see it counted and approve it', async () => {
    const { user, caller, courses, orderId, lines } = await paidOrder(2, 12)
    await expect(caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: ' ' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    })
    expect(await caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: 'Not what I expected' })).toEqual({
      lineId: lines[0]!.id,
      status: 'open',
    })
    await expect(caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: 'again' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'A refund has already been requested for this line',
    })
    const stranger = await shopCaller(db(), await createUser(db()), payments)
    await expect(stranger.purchases.requestRefund({ lineId: lines[1]!.id, reason: 'mine?' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    const staffMail = await db()
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('kind', '=', 'refund_requested')
      .execute()
    expect(staffMail.map((row) => row.to_address)).toContain(admin.email)

    const list = await (await staff()).admin.orders.list({})
    expect(list.openRequests).toBeGreaterThanOrEqual(1)
    const request = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === orderId)!
    expect(request).toMatchObject({ title: lines[0]!.title, reason: 'Not what I expected', customerEmail: user.email })
    const decided = await (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'approve' })
    expect(decided).toMatchObject({ status: 'approved', refund: { status: 'partially_refunded' } })
    const kept = courses.find((course) => course.title !== lines[0]!.title)!
    expect(await owned(caller)).toEqual([kept.id])
    const [order] = await caller.purchases.orders()
    expect(order?.items.find((item) => item.id === lines[0]!.id)).toMatchObject({
      refunded: true,
      refundRequest: { status: 'approved' },
    })
    await expect(
      (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'decline', reason: 'late' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' })
    // A refunded line cannot be asked for again.
    await expect(caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: 'x' })).rejects.toMatchObject({
      code: 'CONFLICT',
    })
  })

  it('declines with a reason (the buyer is told), and refuses requests after 30 days', async () => {
    const { user, caller, lines, orderId } = await paidOrder(1, 14)
    await caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: 'Changed my mind' })
    const request = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === orderId)!
    await expect(
      (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'decline', reason: ' ' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await (await staff()).admin.orders.decideRequest({
      requestId: request.id,
      decision: 'decline',
      reason: 'You completed the course',
    })
    const mail = await db()
      .selectFrom('mail_outbox')
      .select(['text_body', 'reply_to'])
      .where('to_address', '=', user.email)
      .where('kind', '=', 'refund_request_declined')
      .executeTakeFirstOrThrow()
    expect(mail.text_body).toContain('You completed the course')
    // "Reply to this e-mail if you would like to talk about it": the reply reaches the staff address.
    expect(mail.text_body).toContain('Reply to this e-mail')
    expect(mail.reply_to).toBe('support@skillforge.example')
    expect((await owned(caller)).length).toBe(1)

    const old = await paidOrder(1, 15)
    await db()
      .updateTable('orders')
      .set({ paid_at: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) })
      .where('id', '=', old.orderId)
      .execute()
    await expect(
      old.caller.purchases.requestRefund({ lineId: old.lines[0]!.id, reason: 'late' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Refunds can be requested within 30 days of purchase' })
  })
})
