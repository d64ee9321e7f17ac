// What happens after a purchase, at its edges (issue 13, decision 0026), against the real server, a real database
// and the fake Stripe: a refunded plan ends its subscription at Stripe so it never renews; a lost dispute records
// the money the bank took back (credit note) and keeps access withheld; a partial refund made in the Stripe
// dashboard is recorded and waits for staff to say which lines it gave back; Stripe Tax's per-jurisdiction amounts
// become the invoice's tax lines; the 24 h expiry runs through the job queue; the exact e-mails of a refund request.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { type RunningJobs, startJobs } from '../../../src-server/jobs/start.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { captureLog, emptyUploads, waitUntil } from '../../support/jobs.ts'
import { mailsTo as mailsOf } from '../../support/outbox.ts'
import { type PaymentsServer, payCartByCard, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { pdfText } from '../../support/pdf.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db
const DAY = 86_400

beforeAll(async () => {
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
    .select(['status', 'captured_minor', 'refunded_minor', 'tax_minor', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()

const mailsTo = (email: string) => mailsOf(db(), email)

/** A buyer who paid for `count` courses by card through the webhook (tax included: STRIPE_TAX is on here). */
async function paidCourses(count: number, offset: number) {
  const user = await createUser(db())
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
    lines: detail.lines,
    paymentIntent: order.stripe_payment_intent_id!,
  }
}

/** A member who had a plan before (so no free trial) and paid a plan by card: Stripe bills it through an invoice. */
async function paidPlan() {
  const user = await createUser(db())
  await db()
    .insertInto('subscriptions')
    .values({ user_id: user.id, plan_id: 'basic', billing_cycle: 'monthly', status: 'cancelled', ended_at: new Date() })
    .execute()
  const caller = await shopCaller(db(), user, payments)
  await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'monthly' })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected card')
  const session = fake.completeSession(sessionIdOf(started.url))
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200]))
  return { user, caller, orderId: started.orderId, stripeSubscriptionId: session.subscription! }
}

const liveSubscription = (userId: string) =>
  db()
    .selectFrom('subscriptions')
    .select(['id', 'status', 'ended_at', 'end_reason', 'stripe_subscription_id'])
    .where('user_id', '=', userId)
    .where('order_id', 'is not', null)
    .executeTakeFirstOrThrow()

describe('refunding a plan', () => {
  it('ends its subscription at Stripe before the money goes back, so it never renews; ledger and state agree', async () => {
    const { user, orderId, stripeSubscriptionId } = await paidPlan()
    expect(await isPremium(db(), user)).toBe(true)
    const kept = await orderRow(orderId)
    expect(kept.captured_minor).toBeGreaterThan(0)
    expect(kept.stripe_payment_intent_id).toMatch(/^pi_/) // read from the first invoice's payment at payment
    // As if Stripe could not be asked then (webhook's look-up failed): the refund finds the payment itself.
    await db().updateTable('orders').set({ stripe_payment_intent_id: null }).where('id', '=', orderId).execute()
    const before = await orderRow(orderId)

    const refund = await (await staff()).admin.orders.refund({ orderId })
    expect(refund).toMatchObject({ status: 'refunded', amountMinor: before.captured_minor })
    expect(fake.billing.subscriptions.get(stripeSubscriptionId)?.status).toBe('canceled')
    // Refunded through the payment of the subscription's first invoice, found and kept on the order.
    const intent = (await orderRow(orderId)).stripe_payment_intent_id
    expect(intent).toBe([...fake.invoicePayments.values()].find((pi) => pi === intent))
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount)).toEqual([
      before.captured_minor,
    ])
    expect(await liveSubscription(user.id)).toMatchObject({ status: 'cancelled', end_reason: 'refund' })
    const grant = await db()
      .selectFrom('access_grants')
      .select(['revoked_reason'])
      .where('user_id', '=', user.id)
      .where('kind', '=', 'premium')
      .executeTakeFirstOrThrow()
    expect(grant.revoked_reason).toBe('refund')
    expect(await isPremium(db(), user)).toBe(false)

    // Stripe's customer.subscription.deleted follows; a month later nothing renews and nothing comes back.
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    const invoices = fake.billing.invoicesOf(fake.billing.subscriptions.get(stripeSubscriptionId)!.customer).length
    await fake.advance(40 * DAY)
    expect(fake.billing.invoicesOf(fake.billing.subscriptions.get(stripeSubscriptionId)!.customer)).toHaveLength(
      invoices,
    )
    expect(await liveSubscription(user.id)).toMatchObject({ status: 'cancelled' })
    expect(await isPremium(db(), user)).toBe(false)
  })

  it('a full dashboard refund of a plan ends it here and asks Stripe to cancel it after the event', async () => {
    const { user, orderId, stripeSubscriptionId } = await paidPlan()
    // The session's event names no payment (the first invoice paid it): the order kept the one Stripe lists for it.
    const invoice = [...fake.invoicePayments.keys()].find(
      (id) => fake.billing.invoices.get(id)?.parent.subscription_details.subscription === stripeSubscriptionId,
    )!
    const intent = fake.invoicePayments.get(invoice)!
    expect(intent).toMatch(/^pi_/)
    expect((await orderRow(orderId)).stripe_payment_intent_id).toBe(intent)
    // No staff refund first: the dashboard refunds it in full.
    fake.dashboardRefund(intent, (await orderRow(orderId)).captured_minor)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(intent))).toBe(200)
    expect((await orderRow(orderId)).status).toBe('refunded')
    expect(fake.billing.subscriptions.get(stripeSubscriptionId)?.status).toBe('canceled')
    expect(await liveSubscription(user.id)).toMatchObject({ status: 'cancelled' })
    expect(await isPremium(db(), user)).toBe(false)
  })
})

describe('refunding a PayPal plan', () => {
  it('ends the manual subscription here (no Stripe), with its Premium', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user, payments)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'annual' })
    const started = await caller.payments.start({ currency: 'USD', method: 'paypal' })
    await (await staff()).admin.orders.markPaid({ id: started.orderId })
    expect(await isPremium(db(), user)).toBe(true)
    const cancelledAtStripe = [...fake.billing.subscriptions.values()].filter((sub) => sub.status === 'canceled').length
    await (await staff()).admin.orders.refund({ orderId: started.orderId, reference: 'PAYPAL-PLAN-1' })
    expect(await liveSubscription(user.id)).toMatchObject({ status: 'cancelled', stripe_subscription_id: null })
    expect(await isPremium(db(), user)).toBe(false)
    expect([...fake.billing.subscriptions.values()].filter((sub) => sub.status === 'canceled')).toHaveLength(
      cancelledAtStripe,
    )
  })
})

describe('a lost dispute', () => {
  const dispute = (id: string, paymentIntent: string, status: string, amount: number) => ({
    id,
    object: 'dispute',
    amount,
    charge: `ch_${paymentIntent.slice(3)}`,
    payment_intent: paymentIntent,
    reason: 'fraudulent',
    status,
  })

  it('records the money taken back (method dispute, credit note on the invoice) and keeps access withheld', async () => {
    const { user, caller, orderId, paymentIntent, courses } = await paidCourses(2, 0)
    const order = await orderRow(orderId)
    await fake.deliver(
      'charge.dispute.created',
      dispute('dp_lost_all', paymentIntent, 'needs_response', order.captured_minor),
    )
    const closed = dispute('dp_lost_all', paymentIntent, 'lost', order.captured_minor)
    expect(await fake.deliver('charge.dispute.closed', closed)).toBe(200)
    expect(await fake.deliver('charge.dispute.closed', closed)).toBe(200) // another event id: recorded once

    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', refunded_minor: order.captured_minor })
    const refunds = await db()
      .selectFrom('refunds')
      .select(['amount_minor', 'method', 'reference'])
      .where('order_id', '=', orderId)
      .execute()
    expect(refunds).toEqual([{ amount_minor: order.captured_minor, method: 'dispute', reference: 'dp_lost_all' }])
    const [listed] = await caller.purchases.orders()
    expect(listed?.creditNotes).toHaveLength(1)
    const note = await caller.purchases.document({ kind: 'credit_note', id: listed!.creditNotes[0]!.id })
    expect(note).toMatchObject({ invoiceNumber: listed!.invoice!.number, totalMinor: order.captured_minor })
    expect(note.lines.map((line) => line.title).sort()).toEqual(courses.map((course) => course.title).sort())
    expect(await owned(caller)).toEqual([])
    // The bank gave the money back, not the shop: no "we have refunded" e-mail.
    expect((await mailsTo(user.email)).map((mail) => mail.kind)).not.toContain('order_refunded')
    // Nothing is left to refund by hand.
    await expect((await staff()).admin.orders.refund({ orderId })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('a lost dispute of part of the payment, whose created event never came, withholds access and records that part', async () => {
    const { caller, orderId, paymentIntent } = await paidCourses(1, 2)
    expect(await owned(caller)).toHaveLength(1)
    expect(await fake.deliver('charge.dispute.closed', dispute('dp_lost_part', paymentIntent, 'lost', 300))).toBe(200)
    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', refunded_minor: 300 })
    expect(await owned(caller)).toEqual([])
    const [listed] = await caller.purchases.orders()
    const note = await caller.purchases.document({ kind: 'credit_note', id: listed!.creditNotes[0]!.id })
    // Tax is on here (20 %): the 300 taken back is 250 of price and 50 of tax, and the note says so.
    expect(note).toMatchObject({
      lines: [{ title: 'Chargeback (dispute lost)', quantity: 1, unitMinor: 250, amountMinor: 250 }],
      subtotalMinor: 250,
      taxLines: [{ name: 'Tax', amountMinor: 50 }],
      totalMinor: 300,
    })
  })
})

describe('a partial refund made in the Stripe dashboard', () => {
  it('is recorded (Partially refunded, credit note for its amount), keeps access, and waits for staff to assign lines', async () => {
    const { user, caller, orderId, paymentIntent, lines, courses } = await paidCourses(2, 3)
    fake.dashboardRefund(paymentIntent, 500)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)

    expect(await orderRow(orderId)).toMatchObject({ status: 'partially_refunded', refunded_minor: 500 })
    const [listed] = await caller.purchases.orders()
    expect(listed?.creditNotes).toEqual([
      { id: expect.any(String), number: expect.stringMatching(/^CN-/), totalMinor: 500 },
    ])
    expect(await owned(caller)).toEqual(courses.map((course) => course.id).sort())
    expect((await mailsTo(user.email)).filter((mail) => mail.kind === 'order_refunded')).toHaveLength(1)

    const list = await (await staff()).admin.orders.list({ status: 'partially_refunded' })
    expect(list.items.find((row) => row.id === orderId)?.needsLineAssignment).toBe(true)
    const detail = await (await staff()).admin.orders.detail({ id: orderId })
    const flagged = detail.refunds.find((refund) => refund.needsLineAssignment)!
    expect(flagged).toMatchObject({ amountMinor: 500, method: 'stripe' })

    const editor = await shopCaller(db(), await createUser(db(), { role: 'editor' }), payments)
    await expect(
      editor.admin.orders.assignRefundLines({ refundId: flagged.id, lineIds: [lines[0]!.id] }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' })

    // Staff say it gave back the first line: that course closes, the other stays; the flag clears.
    const assigned = await (await staff()).admin.orders.assignRefundLines({
      refundId: flagged.id,
      lineIds: [lines[0]!.id],
    })
    expect(assigned.lines).toEqual([lines[0]!.id])
    const kept = courses.find((course) => course.title !== lines[0]!.title)!
    expect(await owned(caller)).toEqual([kept.id])
    expect(
      (await (await staff()).admin.orders.list({})).items.find((row) => row.id === orderId)?.needsLineAssignment,
    ).toBe(false)
    await expect(
      (await staff()).admin.orders.assignRefundLines({ refundId: flagged.id, lineIds: [] }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'This refund’s lines have already been settled' })
    const audit = await db().selectFrom('audit_log').select('action').where('entity_id', '=', orderId).execute()
    expect(audit.map((row) => row.action)).toEqual(['order.refund_lines_assigned'])
  })

  it('staff may keep access (no lines); a later full refund clears any flag and closes everything', async () => {
    const { caller, orderId, paymentIntent } = await paidCourses(2, 5)
    fake.dashboardRefund(paymentIntent, 200)
    await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))
    const flagged = (await (await staff()).admin.orders.detail({ id: orderId })).refunds[0]!
    await (await staff()).admin.orders.assignRefundLines({ refundId: flagged.id, lineIds: [] })
    expect(await owned(caller)).toHaveLength(2)

    fake.dashboardRefund(paymentIntent, 100)
    await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))
    expect(
      (await (await staff()).admin.orders.list({})).items.find((row) => row.id === orderId)?.needsLineAssignment,
    ).toBe(true)
    const order = await orderRow(orderId)
    fake.dashboardRefund(paymentIntent, order.captured_minor - order.refunded_minor)
    await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))
    expect((await orderRow(orderId)).status).toBe('refunded')
    expect(
      (await (await staff()).admin.orders.list({})).items.find((row) => row.id === orderId)?.needsLineAssignment,
    ).toBe(false)
    expect(await owned(caller)).toEqual([])
  })
})

describe('Stripe Tax (STRIPE_TAX=true)', () => {
  it('records each jurisdiction’s tax as its own line on the invoice, its page data and its PDF', async () => {
    const { user, caller, orderId, courses } = await paidCourses(1, 7)
    const price = courses[0]!.price_minor
    const tax = Math.round(price * 0.2)
    const state = Math.round((tax * 3) / 4)
    expect(await orderRow(orderId)).toMatchObject({ tax_minor: tax, captured_minor: price + tax })
    const [listed] = await caller.purchases.orders()
    const invoice = await caller.purchases.document({ kind: 'invoice', id: listed!.invoice!.id })
    expect(invoice).toMatchObject({
      subtotalMinor: price,
      taxMinor: tax,
      totalMinor: price + tax,
      taxLines: [
        { name: 'Sales Tax — California 15%', amountMinor: state },
        { name: 'City Tax — San Francisco 5%', amountMinor: tax - state },
      ],
    })
    // The PDF draws the same lines.
    const base = shop.server.app.server.address() as { port: number }
    const cookie = `${SESSION_COOKIE}=${(await createSessionToken(db(), user.id)).token}`
    const pdf = await fetch(`http://127.0.0.1:${base.port}/api/documents/invoice/${invoice.id}.pdf`, {
      headers: { cookie },
    })
    expect(pdf.status).toBe(200)
    const text = pdfText(Buffer.from(await pdf.arrayBuffer())).split('\n')
    expect(text).toContain('Sales Tax — California 15%')
    expect(text).toContain('City Tax — San Francisco 5%')
    // Checkout asked Stripe for automatic tax.
    const sessionId = (
      await db().selectFrom('orders').select('stripe_session_id').where('id', '=', orderId).executeTakeFirstOrThrow()
    ).stripe_session_id!
    expect(fake.createParams.get(sessionId)?.automatic_tax).toEqual({ enabled: 'true' })
  })

  it('a plan’s renewal carries Stripe Tax too: its invoice shows the tax apart from the plan’s price', async () => {
    const { caller, stripeSubscriptionId } = await paidPlan()
    const sub = fake.billing.subscriptions.get(stripeSubscriptionId)!
    expect(sub.automatic_tax).toEqual({ enabled: true })
    const price = sub.items.data[0]!.price.unit_amount
    await fake.advance(sub.items.data[0]!.current_period_end - fake.billing.now + DAY)
    const renewal = await db()
      .selectFrom('subscription_invoices as si')
      .innerJoin('invoices as i', 'i.stripe_invoice_id', 'si.stripe_invoice_id')
      .select(['i.id', 'si.amount_minor', 'si.tax_minor'])
      .where('si.billing_reason', '=', 'subscription_cycle')
      .where('si.user_id', '=', (await caller.auth.me())!.id)
      .executeTakeFirstOrThrow()
    const tax = Math.round(price * 0.2)
    expect(renewal).toMatchObject({ amount_minor: price + tax, tax_minor: tax })
    expect(await caller.purchases.document({ kind: 'invoice', id: renewal.id })).toMatchObject({
      lines: [{ amountMinor: price }],
      subtotalMinor: price,
      taxMinor: tax,
      totalMinor: price + tax,
    })
  })
})

describe('the refund request e-mails', () => {
  it('approving tells the buyer twice (the answer, then the refund); declining once with the reason', async () => {
    const approved = await paidCourses(1, 8)
    await approved.caller.purchases.requestRefund({ lineId: approved.lines[0]!.id, reason: 'Not for me' })
    const staffMails = (await mailsTo(admin.email)).filter((mail) => mail.kind === 'refund_requested')
    expect(staffMails.at(-1)?.subject).toBe(
      `Refund requested: ${approved.lines[0]!.title} (order ${(await approved.caller.purchases.orders())[0]!.reference})`,
    )
    const request = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === approved.orderId)!
    const before = (await mailsTo(approved.user.email)).length
    await (await staff()).admin.orders.decideRequest({ requestId: request.id, decision: 'approve' })
    const reference = (await approved.caller.purchases.orders())[0]!.reference
    const after = (await mailsTo(approved.user.email)).slice(before)
    // Queued in one transaction (same time): compared in kind order.
    after.sort((a, b) => a.kind.localeCompare(b.kind))
    expect(after.map((mail) => [mail.kind, mail.subject])).toEqual([
      ['order_refunded', expect.stringMatching(new RegExp(`^Refund of \\$[\\d.,]+ for order ${reference}$`))],
      [
        'refund_request_approved',
        `Your refund request for ${approved.lines[0]!.title} (order ${reference}) is approved`,
      ],
    ])

    const declined = await paidCourses(1, 9)
    await declined.caller.purchases.requestRefund({ lineId: declined.lines[0]!.id, reason: 'Changed my mind' })
    const other = (await (await staff()).admin.orders.requests()).find((row) => row.orderId === declined.orderId)!
    const count = (await mailsTo(declined.user.email)).length
    await (await staff()).admin.orders.decideRequest({
      requestId: other.id,
      decision: 'decline',
      reason: 'Course completed',
    })
    const declinedMails = (await mailsTo(declined.user.email)).slice(count)
    expect(declinedMails.map((mail) => mail.kind)).toEqual(['refund_request_declined'])
    expect(declinedMails[0]!.text_body).toContain('Course completed')
  })
})

describe('the 24 h expiry through the job queue', () => {
  let jobs: RunningJobs | undefined
  afterAll(() => jobs?.stop())

  it('a worker runs orders.expire: the old card order is Expired, its Stripe session expired; a young one stays', async () => {
    const old = await createUser(db())
    const young = await createUser(db())
    const startFor = async (user: TestUser, offset: number) => {
      const caller = await shopCaller(db(), user, payments)
      const [course] = await pricedCourses(db(), { count: 1, offset })
      await caller.cart.add({ kind: 'course', courseId: course!.id })
      const started = await caller.payments.start({ currency: 'USD', method: 'card' })
      if (started.method !== 'card') throw new Error('expected card')
      return { caller, started }
    }
    const abandoned = await startFor(old, 10)
    const fresh = await startFor(young, 11)
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000)
    await sql`update orders set created_at = ${dayAgo} where id = ${abandoned.started.orderId}`.execute(db())

    jobs = await startJobs({
      db: db(),
      pglite: shop.database.pglite,
      databaseUrl: shop.database.url,
      storage: emptyUploads(),
      stripe: payments.stripe,
      env: { MAIL_FROM: 'SkillForge <no-reply@skillforge.example>' },
      log: captureLog().log,
    })
    const { rows } = await sql<{ cron: string }>`select cron from pgboss.schedule where name = 'orders.expire'`.execute(
      db(),
    )
    expect(rows).toEqual([{ cron: '*/15 * * * *' }])
    await jobs.queue.enqueue('orders.expire', {})
    await waitUntil(async () => (await orderRow(abandoned.started.orderId)).status === 'expired', 30_000)

    if (abandoned.started.method !== 'card' || fresh.started.method !== 'card') throw new Error('expected card')
    expect(fake.sessions.get(sessionIdOf(abandoned.started.url))?.status).toBe('expired')
    expect(fake.expiredThroughApi).toContain(sessionIdOf(abandoned.started.url))
    expect((await orderRow(fresh.started.orderId)).status).toBe('pending')
    expect(fake.sessions.get(sessionIdOf(fresh.started.url))?.status).toBe('open')
    const [order] = await abandoned.caller.purchases.orders()
    expect(order?.status).toBe('expired')
  })
})
