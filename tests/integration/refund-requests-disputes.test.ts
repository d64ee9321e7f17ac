// After a purchase, pinned exactly (issue 19): card disputes (opened, won, lost) and what they do to the order's
// status, its access and its money; the Stripe events about a purchase that arrive afterwards (an expired session,
// charge.refunded, disputes) and what is ignored as not ours or unreadable; the buyer's refund requests (who may ask
// for what, the exact refusals, the 30-day window to the millisecond, staff's decision); the staff order detail; and
// the exact e-mails each of these queues.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestRefund } from '../../src-server/orders/refund-requests.ts'
import type { PaymentsConfig } from '../../src-server/payments/config.ts'
import { processStripeEvent } from '../../src-server/payments/events.ts'
import { formatMoney } from '../../src-shared/money.ts'
import { createUser, type TestUser } from '../support/factories.ts'
import type { FakeStripe } from '../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../support/payments-server.ts'
import { pricedCourses, shopCaller } from '../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db
const DAY_MS = 24 * 60 * 60 * 1000

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const staff = () => shopCaller(db(), admin, payments)
type Caller = Awaited<ReturnType<typeof shopCaller>>
const owned = async (caller: Caller) => (await caller.purchases.entitlements()).courseIds.sort()

/** Applies one signed Stripe event as the webhook does and gives back what it came to (without its id and type). */
async function apply(type: string, object: unknown) {
  const { eventId: _id, type: _type, ...result } = await processStripeEvent(db(), fake.signedEvent(type, object).event)
  return result
}

/** A buyer (first name `firstName`) who paid for `count` courses by card through the webhook. */
async function paidOrder(count: number, offset: number, firstName = 'Test') {
  const user = await createUser(db(), { firstName })
  const caller = await shopCaller(db(), user, payments)
  const courses = await pricedCourses(db(), { count, offset })
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const started = await caller.payment.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  expect(await fake.deliver('checkout.session.completed', fake.completeSession(sessionIdOf(started.url)))).toBe(200)
  const detail = await (await staff()).admin.orders.detail({ id: started.orderId })
  const order = await orderRow(started.orderId)
  return {
    user,
    caller,
    courses,
    orderId: started.orderId,
    reference: detail.reference,
    lines: detail.lines,
    paymentIntent: order.stripe_payment_intent_id!,
    captured: order.captured_minor,
  }
}

const orderRow = (orderId: string) =>
  db()
    .selectFrom('orders')
    .select(['status', 'captured_minor', 'refunded_minor', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()

const refundsOf = (orderId: string) =>
  db()
    .selectFrom('refunds')
    .select(['id', 'amount_minor', 'method', 'reference', 'stripe_refund_id', 'reason', 'needs_line_assignment'])
    .where('order_id', '=', orderId)
    .orderBy('amount_minor')
    .execute()

const grantsOf = (orderId: string) =>
  db().selectFrom('access_grants').select(['revoked_at', 'revoked_reason']).where('order_id', '=', orderId).execute()

const lineRefunds = async (orderId: string) =>
  (await db().selectFrom('order_items').select(['title', 'refund_id']).where('order_id', '=', orderId).execute()).sort(
    (a, b) => a.title.localeCompare(b.title),
  )

const mails = (where: { to?: string; kind: string }) => {
  let query = db()
    .selectFrom('mail_outbox')
    .select(['to_address', 'subject', 'text_body'])
    .where('kind', '=', where.kind)
  if (where.to) query = query.where('to_address', '=', where.to)
  return query.orderBy('created_at').orderBy('id').execute()
}

const dispute = (id: string, paymentIntent: unknown, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  object: 'dispute',
  amount: null,
  payment_intent: paymentIntent,
  reason: null,
  status,
  ...extra,
})

describe('a dispute opened', () => {
  it('marks the order Disputed, withholds its access (reason dispute), alerts staff once, remembers the dispute', async () => {
    const { caller, orderId, reference, paymentIntent } = await paidOrder(1, 0)
    expect(await apply('charge.dispute.created', dispute('dp_open', paymentIntent, 'needs_response'))).toEqual({
      outcome: 'processed',
    })
    expect((await orderRow(orderId)).status).toBe('disputed')
    expect(await owned(caller)).toEqual([])
    const grants = await grantsOf(orderId)
    expect(grants.map((grant) => grant.revoked_reason)).toEqual(['dispute'])
    expect(
      await db()
        .selectFrom('order_disputes')
        .select(['order_id', 'status', 'closed'])
        .where('id', '=', 'dp_open')
        .execute(),
    ).toEqual([{ order_id: orderId, status: 'needs_response', closed: false }])
    const alert = {
      to_address: admin.email,
      subject: `Payment disputed: order ${reference}`,
      text_body: `The card payment of order ${reference} is disputed (no reason given; Stripe dispute dp_open).\n\nThe buyer's access to the order has been withheld until the dispute is decided. Respond in the Stripe dashboard.`,
    }
    const alerts = async () =>
      (await mails({ kind: 'order_disputed' })).filter((mail) => mail.subject.endsWith(` ${reference}`))
    expect(await alerts()).toEqual([alert])

    // The same dispute again (another event): still processed, nothing new, no second alert.
    expect(await apply('charge.dispute.created', dispute('dp_open', { id: paymentIntent }, 'under_review'))).toEqual({
      outcome: 'processed',
    })
    expect(await alerts()).toEqual([alert])
    expect(await grantsOf(orderId)).toEqual(grants)
  })

  it('names the reason Stripe gave in the staff alert', async () => {
    const { reference, paymentIntent } = await paidOrder(1, 1)
    await apply(
      'charge.dispute.created',
      dispute('dp_reason', paymentIntent, 'needs_response', { reason: 'fraudulent' }),
    )
    const alerts = (await mails({ kind: 'order_disputed', to: admin.email })).filter((mail) =>
      mail.subject.endsWith(` ${reference}`),
    )
    expect(alerts.map((mail) => mail.text_body.split('\n')[0])).toEqual([
      `The card payment of order ${reference} is disputed (fraudulent; Stripe dispute dp_reason).`,
    ])
  })

  it('ignores a dispute of a payment that is not ours, with no payment, or unreadable', async () => {
    for (const type of ['charge.dispute.created', 'charge.dispute.closed']) {
      expect(await apply(type, dispute(`dp_${type}_x`, 'pi_not_ours', 'lost'))).toEqual({
        outcome: 'ignored',
        reason: 'not_ours',
      })
      expect(await apply(type, dispute(`dp_${type}_y`, null, 'lost'))).toEqual({
        outcome: 'ignored',
        reason: 'not_ours',
      })
      expect(await apply(type, { object: 'dispute', payment_intent: 'pi_x' })).toEqual({
        outcome: 'ignored',
        reason: 'malformed',
      })
    }
    expect(await db().selectFrom('order_disputes').select('id').where('id', 'like', 'dp_charge%').execute()).toEqual([])
  })
})

describe('a dispute closed', () => {
  it('won: the access comes back, the order is Paid again; a later created or closed of it changes nothing', async () => {
    const { caller, courses, orderId, paymentIntent } = await paidOrder(1, 2)
    await apply('charge.dispute.created', dispute('dp_win', paymentIntent, 'needs_response'))
    expect(await apply('charge.dispute.closed', dispute('dp_win', paymentIntent, 'won'))).toEqual({
      outcome: 'processed',
    })
    expect((await orderRow(orderId)).status).toBe('paid')
    expect(await owned(caller)).toEqual([courses[0]!.id])
    expect(await grantsOf(orderId)).toEqual([{ revoked_at: null, revoked_reason: null }])
    expect(
      await db().selectFrom('order_disputes').select(['status', 'closed']).where('id', '=', 'dp_win').execute(),
    ).toEqual([{ status: 'won', closed: true }])

    // Replays (a late created, a second closed saying lost) are not undone: the dispute is closed.
    expect(await apply('charge.dispute.created', dispute('dp_win', paymentIntent, 'needs_response'))).toEqual({
      outcome: 'processed',
    })
    expect(await apply('charge.dispute.closed', dispute('dp_win', paymentIntent, 'lost'))).toEqual({
      outcome: 'processed',
    })
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', refunded_minor: 0 })
    expect(await owned(caller)).toEqual([courses[0]!.id])
    expect(await refundsOf(orderId)).toEqual([])
    expect(
      await db().selectFrom('order_disputes').select(['status', 'closed']).where('id', '=', 'dp_win').execute(),
    ).toEqual([{ status: 'won', closed: true }])
  })

  it('lost, whole amount: recorded as a dispute refund of every line, access stays withheld as it was, no buyer mail', async () => {
    const { user, orderId, lines, paymentIntent, captured } = await paidOrder(2, 3)
    await apply('charge.dispute.created', dispute('dp_all', paymentIntent, 'needs_response'))
    const withheld = await grantsOf(orderId)
    expect(withheld.map((grant) => grant.revoked_reason)).toEqual(['dispute', 'dispute'])
    // No amount on the event: what is left of the payment.
    expect(await apply('charge.dispute.closed', dispute('dp_all', paymentIntent, 'lost'))).toEqual({
      outcome: 'processed',
    })
    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', refunded_minor: captured })
    const [refund] = await refundsOf(orderId)
    expect(await refundsOf(orderId)).toEqual([
      {
        id: refund!.id,
        amount_minor: captured,
        method: 'dispute',
        reference: 'dp_all',
        stripe_refund_id: null,
        reason: 'Dispute lost (no reason given)',
        needs_line_assignment: false,
      },
    ])
    expect(await lineRefunds(orderId)).toEqual(
      lines
        .map((line) => ({ title: line.title, refund_id: refund!.id }))
        .sort((a, b) => a.title.localeCompare(b.title)),
    )
    // The grants were withheld by the dispute and stay so, untouched (not given back and taken again).
    expect(await grantsOf(orderId)).toEqual(withheld)
    expect(await mails({ kind: 'order_refunded', to: user.email })).toEqual([])
  })

  it('lost without its created event: withholds the access itself and records the part the bank took', async () => {
    const { caller, orderId, paymentIntent, captured } = await paidOrder(1, 5)
    expect(
      await apply(
        'charge.dispute.closed',
        dispute('dp_part', paymentIntent, 'lost', { amount: 300, reason: 'general' }),
      ),
    ).toEqual({ outcome: 'processed' })
    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', refunded_minor: 300 })
    expect(await owned(caller)).toEqual([])
    expect((await grantsOf(orderId)).map((grant) => grant.revoked_reason)).toEqual(['dispute'])
    expect((await refundsOf(orderId)).map(({ id: _id, ...refund }) => refund)).toEqual([
      {
        amount_minor: 300,
        method: 'dispute',
        reference: 'dp_part',
        stripe_refund_id: null,
        reason: 'Dispute lost (general)',
        needs_line_assignment: false,
      },
    ])
    // Part of the payment: no line is named.
    expect((await lineRefunds(orderId)).map((line) => line.refund_id)).toEqual([null])
    expect(captured).toBeGreaterThan(300)
  })

  it('lost after a staff refund: capped at what is left, which names only the lines still open', async () => {
    const { orderId, lines, paymentIntent, captured } = await paidOrder(2, 6)
    const first = await (await staff()).admin.orders.refund({ orderId, lineIds: [lines[0]!.id] })
    const left = captured - first.amountMinor
    await apply('charge.dispute.created', dispute('dp_rest', paymentIntent, 'needs_response'))
    // The bank says it took the whole payment back; only what was not refunded yet is recorded.
    expect(
      await apply('charge.dispute.closed', dispute('dp_rest', paymentIntent, 'lost', { amount: captured })),
    ).toEqual({ outcome: 'processed' })
    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', refunded_minor: captured })
    const rows = await refundsOf(orderId)
    const lost = rows.find((row) => row.method === 'dispute')!
    expect(lost).toMatchObject({ amount_minor: left, reference: 'dp_rest' })
    const staffRefund = rows.find((row) => row.method === 'stripe')!
    expect(await lineRefunds(orderId)).toEqual(
      [
        { title: lines[0]!.title, refund_id: staffRefund.id },
        { title: lines[1]!.title, refund_id: lost.id },
      ].sort((a, b) => a.title.localeCompare(b.title)),
    )
    // Its credit note lists only the line it took.
    const note = await db()
      .selectFrom('credit_notes')
      .select(['lines', 'total_minor'])
      .where('refund_id', '=', lost.id)
      .executeTakeFirstOrThrow()
    expect(note.total_minor).toBe(left)
    expect(note.lines.map((line) => line.title)).toEqual([lines[1]!.title])
  })

  it('lost for exactly what is left names the open lines; for nothing (0), or on a refunded order, records nothing', async () => {
    const exact = await paidOrder(1, 7)
    expect(
      await apply(
        'charge.dispute.closed',
        dispute('dp_exact', exact.paymentIntent, 'lost', { amount: exact.captured }),
      ),
    ).toEqual({ outcome: 'processed' })
    const [refund] = await refundsOf(exact.orderId)
    expect(await lineRefunds(exact.orderId)).toEqual([{ title: exact.lines[0]!.title, refund_id: refund!.id }])

    const zero = await paidOrder(1, 8)
    expect(await apply('charge.dispute.closed', dispute('dp_zero', zero.paymentIntent, 'lost', { amount: 0 }))).toEqual(
      {
        outcome: 'processed',
      },
    )
    expect(await orderRow(zero.orderId)).toMatchObject({ status: 'disputed', refunded_minor: 0 })
    expect(await refundsOf(zero.orderId)).toEqual([])

    const refunded = await paidOrder(1, 9)
    await (await staff()).admin.orders.refund({ orderId: refunded.orderId })
    expect(
      await apply('charge.dispute.closed', dispute('dp_after', refunded.paymentIntent, 'lost', { amount: 500 })),
    ).toEqual({ outcome: 'processed' })
    expect(await orderRow(refunded.orderId)).toMatchObject({ refunded_minor: refunded.captured })
    expect((await refundsOf(refunded.orderId)).map((row) => row.method)).toEqual(['stripe'])
  })
})
