// After a purchase, pinned exactly (issue 19): card disputes (opened, won, lost) and what they do to the order's
// status, its access and its money; the Stripe events about a purchase that arrive afterwards (an expired session,
// charge.refunded, disputes) and what is ignored as not ours or unreadable; the buyer's refund requests (who may ask
// for what, the exact refusals, the 30-day window to the millisecond, a database failure while one is recorded,
// staff's decision); the staff order detail; and the exact e-mails each of these queues.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processStripeEvent } from '../../../src-server/flows/apply-stripe-event.ts'
import { requestRefund } from '../../../src-server/orders/refund-requests.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { parseStripeEvent } from '../../../src-server/payments/stripe-event.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../../src-shared/errors.ts'
import { formatMoney } from '../../../src-shared/money.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { buyerWhoHadAPlan, pricedCourses, shopCaller } from '../../support/shop.ts'

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

const staff = () => shopCaller(db(), admin, payments)
type Caller = Awaited<ReturnType<typeof shopCaller>>
const owned = async (caller: Caller) => (await caller.purchases.entitlements()).courseIds.sort()

/** Applies one signed Stripe event as the webhook does and gives back what it came to (without its id and type). */
async function apply(type: string, object: unknown) {
  const {
    eventId: _id,
    type: _type,
    ...result
  } = await processStripeEvent(db(), parseStripeEvent(fake.signedEvent(type, object).event))
  return result
}

/** A buyer (first name `firstName`) who paid for `count` courses by card through the webhook. */
async function paidOrder(count: number, offset: number, firstName = 'Test') {
  const user = await createUser(db(), { firstName })
  const caller = await shopCaller(db(), user, payments)
  const courses = await pricedCourses(db(), { count, offset })
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const orderId = await payCartByCard(fake, caller)
  const detail = await (await staff()).admin.orders.detail({ id: orderId })
  const order = await orderRow(orderId)
  return {
    user,
    caller,
    courses,
    orderId,
    reference: detail.reference,
    lines: detail.lines,
    paymentIntent: order.stripe_payment_intent_id!,
    captured: order.captured_minor,
  }
}

/** A member who had a plan before (no free trial) and paid a plan by card: Stripe bills it through an invoice. */
async function paidPlan() {
  const user = await buyerWhoHadAPlan(db())
  const caller = await shopCaller(db(), user, payments)
  await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  const session = fake.completeSession(sessionIdOf(started.url))
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  const order = await orderRow(started.orderId)
  return {
    user,
    orderId: started.orderId,
    stripeSubscriptionId: session.subscription!,
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
        // Part of the payment names no line: staff say which lines it took back, as for a partial dashboard refund.
        needs_line_assignment: true,
      },
    ])
    // Part of the payment: no line is named.
    expect((await lineRefunds(orderId)).map((line) => line.refund_id)).toEqual([null])
    expect(captured).toBeGreaterThan(300)

    // Its closed event again (another event id): the dispute is closed, the bank's part is not taken twice.
    expect(
      await apply(
        'charge.dispute.closed',
        dispute('dp_part', paymentIntent, 'lost', { amount: 300, reason: 'general' }),
      ),
    ).toEqual({ outcome: 'processed' })
    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', refunded_minor: 300 })
    expect((await refundsOf(orderId)).map((refund) => refund.amount_minor)).toEqual([300])
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

describe('a checkout session Stripe expired', () => {
  it('expires the unpaid order of our session; ignores a session that is not ours or unreadable', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    const [course] = await pricedCourses(db(), { offset: 10 })
    await caller.cart.add({ kind: 'course', courseId: course!.id })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const session = fake.sessions.get(sessionIdOf(started.url))!
    expect(await apply('checkout.session.expired', { ...session, status: 'expired' })).toEqual({ outcome: 'processed' })
    expect((await orderRow(started.orderId)).status).toBe('expired')

    expect(
      await apply('checkout.session.expired', { id: 'cs_not_ours', status: 'expired', payment_status: 'unpaid' }),
    ).toEqual({ outcome: 'ignored', reason: 'not_ours' })
    expect(await apply('checkout.session.expired', { id: 'cs_broken', status: 'expired' })).toEqual({
      outcome: 'ignored',
      reason: 'malformed',
    })
  })
})

describe('charge.refunded', () => {
  it('ignores a charge that is not ours, names no payment or is unreadable; a charge listing no refunds records none', async () => {
    const charge = { id: 'ch_x', object: 'charge', amount: 1000, amount_refunded: 1000 }
    expect(await apply('charge.refunded', { ...charge, payment_intent: 'pi_not_ours' })).toEqual({
      outcome: 'ignored',
      reason: 'not_ours',
    })
    expect(await apply('charge.refunded', { ...charge, payment_intent: null })).toEqual({
      outcome: 'ignored',
      reason: 'not_ours',
    })
    expect(await apply('charge.refunded', { id: 'ch_y', payment_intent: 'pi_x' })).toEqual({
      outcome: 'ignored',
      reason: 'malformed',
    })
    const { orderId, paymentIntent } = await paidOrder(1, 11)
    expect(await apply('charge.refunded', { ...fake.chargeOf(paymentIntent), refunds: null })).toEqual({
      outcome: 'processed',
    })
    expect(await refundsOf(orderId)).toEqual([])
    expect((await orderRow(orderId)).status).toBe('paid')
  })

  it('records two dashboard refunds oldest first: the part waits for staff, the rest names the open lines; each mailed', async () => {
    const { user, caller, orderId, reference, lines, paymentIntent, captured } = await paidOrder(2, 12, '')
    const part = fake.dashboardRefund(paymentIntent, 100)
    const rest = fake.dashboardRefund(paymentIntent, captured - 100)
    // The payment intent expanded as an object, the refunds newest first as Stripe lists them.
    expect(
      await apply('charge.refunded', { ...fake.chargeOf(paymentIntent), payment_intent: { id: paymentIntent } }),
    ).toEqual({ outcome: 'processed' })
    const rows = await refundsOf(orderId)
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
      {
        amount_minor: 100,
        method: 'stripe',
        reference: part.id,
        stripe_refund_id: part.id,
        reason: 'Refunded in the Stripe dashboard',
        // The whole order was refunded in the end: nothing is left to assign.
        needs_line_assignment: false,
      },
      {
        amount_minor: captured - 100,
        method: 'stripe',
        reference: rest.id,
        stripe_refund_id: rest.id,
        reason: 'Refunded in the Stripe dashboard',
        needs_line_assignment: false,
      },
    ])
    expect((await lineRefunds(orderId)).map((line) => line.refund_id)).toEqual([rows[1]!.id, rows[1]!.id])
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', refunded_minor: captured })
    expect(await owned(caller)).toEqual([])

    const notes = await db()
      .selectFrom('credit_notes')
      .select(['refund_id', 'number'])
      .where('refund_id', 'in', [rows[0]!.id, rows[1]!.id])
      .execute()
    const noteOf = (refundId: string) => notes.find((note) => note.refund_id === refundId)!.number
    const titles = lines.map((line) => `- ${line.title}`).join('\n')
    const sent = await mails({ kind: 'order_refunded', to: user.email })
    expect(
      sent.map(({ to_address: _to, ...mail }) => mail).sort((a, b) => a.subject.length - b.subject.length),
    ).toEqual(
      [
        {
          subject: `Refund of ${formatMoney(100, 'USD')} for order ${reference}`,
          text_body: `Hi there,\n\nWe have refunded ${formatMoney(100, 'USD')} for order ${reference}.\nYour credit note ${noteOf(rows[0]!.id)} is in My Account → Orders.\n\nThe money usually reaches your account within 5–10 business days.`,
        },
        {
          subject: `Refund of ${formatMoney(captured - 100, 'USD')} for order ${reference}`,
          text_body: `Hi there,\n\nWe have refunded ${formatMoney(captured - 100, 'USD')} for order ${reference}.\n${titles}\n\nYour credit note ${noteOf(rows[1]!.id)} is in My Account → Orders.\n\nThe money usually reaches your account within 5–10 business days.`,
        },
      ].sort((a, b) => a.subject.length - b.subject.length),
    )
  })

  it('one partial dashboard refund names no line and waits for staff to assign them', async () => {
    const { orderId, paymentIntent } = await paidOrder(2, 14)
    const part = fake.dashboardRefund(paymentIntent, 100)
    expect(await apply('charge.refunded', fake.chargeOf(paymentIntent))).toEqual({ outcome: 'processed' })
    expect((await refundsOf(orderId)).map((row) => [row.reference, row.needs_line_assignment])).toEqual([
      [part.id, true],
    ])
    expect((await lineRefunds(orderId)).map((line) => line.refund_id)).toEqual([null, null])
    expect((await orderRow(orderId)).status).toBe('partially_refunded')
  })
})

describe('refund requests', () => {
  const refused = (code: string, message: string) => expect.objectContaining({ code, message })

  it('who may ask for what: the buyer’s own paid course lines, once, not refunded yet', async () => {
    const { caller, orderId, lines } = await paidOrder(2, 15)
    const ask = (lineId: string, by: Caller = caller) => by.purchases.requestRefund({ lineId, reason: 'Not for me' })
    await expect(ask('00000000-0000-4000-8000-000000000000')).rejects.toEqual(
      refused('NOT_FOUND', 'Order line not found'),
    )
    const stranger = await shopCaller(db(), await createUser(db()), payments)
    await expect(ask(lines[0]!.id, stranger)).rejects.toEqual(refused('NOT_FOUND', 'Order line not found'))

    // A line staff refunded is refused; the other line of the now partially refunded order may still be asked for.
    await (await staff()).admin.orders.refund({ orderId, lineIds: [lines[0]!.id] })
    await expect(ask(lines[0]!.id)).rejects.toEqual(refused('CONFLICT', 'This line has already been refunded'))
    expect(await ask(lines[1]!.id)).toEqual({ lineId: lines[1]!.id, status: 'open' })
    await expect(ask(lines[1]!.id)).rejects.toEqual(
      refused('CONFLICT', 'A refund has already been requested for this line'),
    )

    // An order not paid (yet), or disputed, is not refundable.
    const pending = await createUser(db())
    const pendingCaller = await shopCaller(db(), pending, payments)
    const [course] = await pricedCourses(db(), { offset: 17 })
    await pendingCaller.cart.add({ kind: 'course', courseId: course!.id })
    const started = await pendingCaller.payments.start({ currency: 'USD', method: 'card' })
    const pendingLine = (await (await staff()).admin.orders.detail({ id: started.orderId })).lines[0]!
    await expect(ask(pendingLine.id, pendingCaller)).rejects.toEqual(
      refused('BAD_REQUEST', 'Only a paid order can be refunded'),
    )
    const disputed = await paidOrder(1, 18)
    await apply('charge.dispute.created', dispute('dp_request', disputed.paymentIntent, 'needs_response'))
    await expect(ask(disputed.lines[0]!.id, disputed.caller)).rejects.toEqual(
      refused('BAD_REQUEST', 'Only a paid order can be refunded'),
    )
    expect(
      await db().selectFrom('refund_requests').select('order_item_id').where('status', '=', 'open').execute(),
    ).toContainEqual({ order_item_id: lines[1]!.id })
  })

  it('only course lines: a service package cannot be asked for', async () => {
    const buyer = await createUser(db())
    const caller = await shopCaller(db(), buyer, payments)
    const pkg = await db()
      .selectFrom('service_packages')
      .select(['id', 'currency'])
      .where('service_id', '=', 'uk-company-formation')
      .where('name', '=', 'Standard')
      .executeTakeFirstOrThrow()
    await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
    const started = await caller.payments.start({ currency: pkg.currency as 'USD' | 'GBP', method: 'bank_transfer' })
    await (await staff()).admin.orders.markPaid({ id: started.orderId })
    const line = (await (await staff()).admin.orders.detail({ id: started.orderId })).lines[0]!
    expect(line.kind).toBe('service_package')
    await expect(caller.purchases.requestRefund({ lineId: line.id, reason: 'Not for me' })).rejects.toEqual(
      refused('BAD_REQUEST', 'Refunds can be requested for courses only'),
    )
  })

  it('the database failing as the request is recorded answers 503 (try again), not "already requested"', async () => {
    const { caller, reference, lines } = await paidOrder(1, 26)
    // PostgreSQL ending the session at that very statement, as a fast shutdown does (57P01): a trigger raises it.
    await sql`create function refund_request_outage() returns trigger language plpgsql as $$
      begin raise exception 'terminating connection due to administrator command' using errcode = 'admin_shutdown'; end
    $$`.execute(db())
    await sql`create trigger refund_request_outage before insert on refund_requests
      for each row execute function refund_request_outage()`.execute(db())
    const ask = () => caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: 'Not for me' })
    try {
      await expect(ask()).rejects.toEqual(refused('SERVICE_UNAVAILABLE', SERVICE_UNAVAILABLE_MESSAGE))
    } finally {
      await sql`drop function refund_request_outage() cascade`.execute(db())
    }
    expect(
      await db().selectFrom('refund_requests').select('id').where('order_item_id', '=', lines[0]!.id).execute(),
    ).toEqual([])
    expect((await mails({ kind: 'refund_requested' })).filter((mail) => mail.subject.includes(reference))).toEqual([])
    // Once the database is back, the same request goes through.
    expect(await ask()).toEqual({ lineId: lines[0]!.id, status: 'open' })
  })

  it('within 30 days of payment, to the millisecond', async () => {
    const { user, orderId, lines } = await paidOrder(2, 19)
    const paidAt = new Date(Date.now() - 40 * DAY_MS)
    await db().updateTable('orders').set({ paid_at: paidAt }).where('id', '=', orderId).execute()
    const at = (ms: number) => new Date(paidAt.getTime() + ms)
    await expect(
      requestRefund(db(), user.id, { lineId: lines[0]!.id, reason: 'late' }, at(30 * DAY_MS + 1)),
    ).rejects.toMatchObject({ kind: 'invalid', message: 'Refunds can be requested within 30 days of purchase' })
    expect(
      await requestRefund(db(), user.id, { lineId: lines[0]!.id, reason: 'just in time' }, at(30 * DAY_MS)),
    ).toEqual({ lineId: lines[0]!.id, status: 'open' })
    expect(await requestRefund(db(), user.id, { lineId: lines[1]!.id, reason: 'early' }, at(29 * DAY_MS))).toEqual({
      lineId: lines[1]!.id,
      status: 'open',
    })
  })

  it('staff are mailed; approving refunds the line and tells the buyer; the detail shows it all; decided once', async () => {
    const { user, caller, courses, orderId, reference, lines, captured } = await paidOrder(2, 21)
    await caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: 'Not what I expected' })
    expect(
      (await mails({ kind: 'refund_requested', to: admin.email })).filter((mail) => mail.subject.includes(reference)),
    ).toEqual([
      {
        to_address: admin.email,
        subject: `Refund requested: ${lines[0]!.title} (order ${reference})`,
        text_body:
          'A buyer asked for a refund:\n\nNot what I expected\n\nApprove or decline it in the admin area → Orders.',
      },
    ])
    const request = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === orderId)!
    const decided = await (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'approve' })
    expect(decided).toEqual({
      status: 'approved',
      refund: {
        refundId: expect.any(String),
        amountMinor: lines[0]!.priceMinor,
        status: 'partially_refunded',
        creditNoteNumber: expect.stringMatching(/^CN-\d{4}-\d{6}$/),
      },
    })
    const kept = courses.find((course) => course.title !== lines[0]!.title)!
    expect(await owned(caller)).toEqual([kept.id])
    expect((await refundsOf(orderId)).map((row) => row.reason)).toEqual(['Refund request approved'])
    expect(await mails({ kind: 'refund_request_approved', to: user.email })).toEqual([
      {
        to_address: user.email,
        subject: `Your refund request for ${lines[0]!.title} (order ${reference}) is approved`,
        text_body: `Hello,\n\nWe have approved your refund request for ${lines[0]!.title} and refunded it. A separate e-mail gives the amount and your credit note.\n\nThe course is no longer available in your account.`,
      },
    ])
    expect(await mails({ kind: 'refund_request_declined', to: user.email })).toEqual([])

    const detail = await (await staff()).admin.orders.detail({ id: orderId })
    const invoice = await db()
      .selectFrom('invoices')
      .select(['id', 'number'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    const [refundRow] = await db()
      .selectFrom('refunds')
      .select(['id', 'created_at', 'stripe_refund_id'])
      .where('order_id', '=', orderId)
      .execute()
    const [requestRow] = await db()
      .selectFrom('refund_requests')
      .select(['id', 'created_at'])
      .where('order_id', '=', orderId)
      .execute()
    const byId = [...lines].sort((a, b) => a.id.localeCompare(b.id))
    expect(detail).toEqual({
      id: orderId,
      reference,
      status: 'partially_refunded',
      method: 'card',
      currency: 'USD',
      customerEmail: user.email,
      totalMinor: captured,
      capturedMinor: captured,
      refundedMinor: lines[0]!.priceMinor,
      lines: expect.any(Array),
      invoice,
      renewalInvoices: [],
      creditNotes: [
        { id: expect.any(String), number: decided.refund!.creditNoteNumber, totalMinor: lines[0]!.priceMinor },
      ],
      refunds: [
        {
          id: refundRow!.id,
          amountMinor: lines[0]!.priceMinor,
          method: 'stripe',
          reference: refundRow!.stripe_refund_id,
          createdAt: refundRow!.created_at.toISOString(),
          needsLineAssignment: false,
        },
      ],
      requests: [
        {
          id: requestRow!.id,
          lineId: lines[0]!.id,
          reason: 'Not what I expected',
          status: 'approved',
          decisionReason: null,
          createdAt: requestRow!.created_at.toISOString(),
        },
      ],
    })
    expect(detail.lines.map((line) => line.id)).toEqual(byId.map((line) => line.id))
    expect(detail.lines.find((line) => line.id === lines[0]!.id)).toEqual({
      id: lines[0]!.id,
      kind: 'course',
      title: lines[0]!.title,
      detail: lines[0]!.detail,
      priceMinor: lines[0]!.priceMinor,
      freeTrial: false,
      refunded: true,
    })
    expect(detail.lines.find((line) => line.id === lines[1]!.id)?.refunded).toBe(false)

    await expect(
      (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'decline', reason: 'late' }),
    ).rejects.toEqual(refused('CONFLICT', 'This refund request has already been decided'))
    await expect(
      (await staff()).admin.orders.decideRequest({
        requestId: '00000000-0000-4000-8000-000000000000',
        decision: 'approve',
      }),
    ).rejects.toEqual(refused('NOT_FOUND', 'Refund request not found'))
    await expect((await staff()).admin.orders.detail({ id: '00000000-0000-4000-8000-000000000000' })).rejects.toEqual(
      refused('NOT_FOUND', 'Order not found'),
    )
  })

  it('declining keeps the line, records the reason and tells the buyer why (no refund mail)', async () => {
    const { user, caller, courses, orderId, reference, lines } = await paidOrder(1, 23)
    await caller.purchases.requestRefund({ lineId: lines[0]!.id, reason: 'Changed my mind' })
    const request = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === orderId)!
    expect(
      await (await staff()).admin.orders.decideRequest({
        requestId: request.id,
        decision: 'decline',
        reason: 'You completed the course',
      }),
    ).toEqual({ status: 'declined', refund: null })
    expect(await owned(caller)).toEqual([courses[0]!.id])
    expect(await refundsOf(orderId)).toEqual([])
    expect(await mails({ kind: 'refund_request_declined', to: user.email })).toEqual([
      {
        to_address: user.email,
        subject: `Your refund request for ${lines[0]!.title} (order ${reference})`,
        text_body: `Hello,\n\nWe have looked at your refund request for ${lines[0]!.title} and cannot approve it:\n\nYou completed the course\n\nReply to this e-mail if you would like to talk about it.`,
      },
    ])
    expect(await mails({ kind: 'refund_request_approved', to: user.email })).toEqual([])
    expect(await mails({ kind: 'order_refunded', to: user.email })).toEqual([])
    const detail = await (await staff()).admin.orders.detail({ id: orderId })
    expect(detail.requests.map(({ status, decisionReason }) => ({ status, decisionReason }))).toEqual([
      { status: 'declined', decisionReason: 'You completed the course' },
    ])
    expect(detail.invoice).toEqual({ id: expect.any(String), number: expect.any(String) })
    expect(detail.status).toBe('paid')
  })
})

describe('the refund e-mail of a staff refund', () => {
  it('greets the buyer by first name and lists the refunded line and the credit note', async () => {
    const { user, orderId, reference, lines } = await paidOrder(2, 24, 'Ada')
    const refund = await (await staff()).admin.orders.refund({ orderId, lineIds: [lines[1]!.id] })
    const amount = formatMoney(refund.amountMinor, 'USD')
    expect(await mails({ kind: 'order_refunded', to: user.email })).toEqual([
      {
        to_address: user.email,
        subject: `Refund of ${amount} for order ${reference}`,
        text_body: `Hi Ada,\n\nWe have refunded ${amount} for order ${reference}.\n- ${lines[1]!.title}\n\nYour credit note ${refund.creditNoteNumber} is in My Account → Orders.\n\nThe money usually reaches your account within 5–10 business days.`,
      },
    ])
  })
})

describe('a plan paid by card, after the purchase', () => {
  it('a dispute withholds its Premium and a won one gives it back', async () => {
    const { user, orderId, paymentIntent } = await paidPlan()
    expect(await isPremium(db(), user)).toBe(true)
    expect(await apply('charge.dispute.created', dispute('dp_plan_won', paymentIntent, 'needs_response'))).toEqual({
      outcome: 'processed',
    })
    expect((await orderRow(orderId)).status).toBe('disputed')
    expect(await isPremium(db(), user)).toBe(false)
    expect(await apply('charge.dispute.closed', dispute('dp_plan_won', paymentIntent, 'won'))).toEqual({
      outcome: 'processed',
    })
    expect((await orderRow(orderId)).status).toBe('paid')
    expect(await isPremium(db(), user)).toBe(true)
  })

  it('a dispute lost in full ends the plan and asks Stripe to cancel its subscription after the event', async () => {
    const { user, orderId, paymentIntent, stripeSubscriptionId } = await paidPlan()
    expect(await apply('charge.dispute.closed', dispute('dp_plan_lost', paymentIntent, 'lost'))).toEqual({
      outcome: 'processed',
      followUp: { cancelSubscriptions: [stripeSubscriptionId] },
    })
    expect((await orderRow(orderId)).status).toBe('disputed')
    expect(await isPremium(db(), user)).toBe(false)
  })

  it('a partial dashboard refund of it leaves the plan running: nothing to cancel at Stripe, staff assign it', async () => {
    const { user, orderId, paymentIntent, stripeSubscriptionId } = await paidPlan()
    const part = fake.dashboardRefund(paymentIntent, 100)
    expect(await apply('charge.refunded', fake.chargeOf(paymentIntent))).toEqual({ outcome: 'processed' })
    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 100 })
    expect((await refundsOf(orderId)).map((row) => [row.reference, row.needs_line_assignment])).toEqual([
      [part.id, true],
    ])
    expect(await isPremium(db(), user)).toBe(true)
    expect(fake.billing.subscriptions.get(stripeSubscriptionId)?.status).toBe('active')
    expect(
      await db().selectFrom('subscriptions').select(['status', 'ended_at']).where('order_id', '=', orderId).execute(),
    ).toEqual([{ status: 'active', ended_at: null }])
  })

  it('a full dashboard refund of it asks Stripe to cancel its subscription after the event', async () => {
    const { user, orderId, paymentIntent, stripeSubscriptionId, captured } = await paidPlan()
    fake.dashboardRefund(paymentIntent, captured)
    expect(await apply('charge.refunded', fake.chargeOf(paymentIntent))).toEqual({
      outcome: 'processed',
      followUp: { cancelSubscriptions: [stripeSubscriptionId] },
    })
    expect((await orderRow(orderId)).status).toBe('refunded')
    expect(await isPremium(db(), user)).toBe(false)
  })
})
