// Service orders and money, against the real server, a real database and the fake Stripe with its test clock:
// monthly SEO management runs as a subscription (a period and a report per paid month, closed at the end of the
// cancelled period), and a staff cancel refunds the order's line through the refunds flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { servicePackage, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
let editor: TestUser
const db = () => shop.database.db
const HOUR = 3600

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
  editor = await createUser(db(), { role: 'editor' })
})
afterAll(() => shop.close())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const staff = (user: TestUser) => shopCaller(db(), user, payments)
const seoBrief = {
  websiteUrl: 'https://shop.example.com',
  targetMarkets: ['United Kingdom'],
  analyticsAccess: 'No analytics yet',
}

/** A buyer who bought one package by card (Stripe's checkout and its events delivered) or by bank transfer. */
async function buyPackage(serviceId: string, packageName: string, method: 'card' | 'bank_transfer' = 'card') {
  const buyer = await createUser(db())
  const caller = await shopCaller(db(), buyer, payments)
  const pkg = await servicePackage(db(), serviceId, packageName)
  await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
  const started = await caller.payments.start({ currency: pkg.currency as 'USD' | 'GBP', method })
  let subscriptionId: string | null = null
  if (started.method === 'card') {
    const session = fake.completeSession(sessionIdOf(started.url))
    subscriptionId = session.subscription ?? null
    expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
    expect((await fake.flush()).filter((status) => status !== 200)).toEqual([])
  } else {
    await (await staff(admin)).admin.orders.markPaid({ id: started.orderId })
  }
  const [order] = await caller.serviceOrders.mine()
  return { buyer, caller, pkg, orderId: started.orderId, id: order!.id, subscriptionId }
}

const mails = (to: string, kind: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body', 'reply_to'])
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .execute()

describe('monthly SEO management', () => {
  it('runs as a subscription: a period and a report per paid month, closed when the cancelled period ends', async () => {
    const { buyer, caller, pkg, id, subscriptionId } = await buyPackage('seo-management', 'Starter SEO Monthly')
    expect(subscriptionId).toMatch(/^sub_/)
    const subscription = fake.billing.retrieve(subscriptionId!)!
    // No free trial on a service: the first month is charged at checkout.
    expect(subscription.trial_end).toBeNull()
    const firstEnd = subscription.items.data[0]!.current_period_end
    expect(fake.billing.invoicesOf(subscription.customer).map((inv) => inv.amount_paid)).toEqual([pkg.price_minor])

    const [listed] = await caller.serviceOrders.mine()
    expect(listed).toMatchObject({ id, recurring: true, status: 'brief_needed', endsAt: null, period: { number: 1 } })
    expect(listed?.period?.endsAt).toBe(new Date(firstEnd * 1000).toISOString())

    await caller.serviceOrders.submitBrief({ id, brief: seoBrief })
    const work = await staff(editor)
    // A recurring order is delivered month by month, never as a whole.
    await work.admin.serviceOrders.start({ id })
    expect(await work.admin.serviceOrders.deliver({ id, note: 'All done', fileIds: [] }).catch((e) => e.code)).toBe(
      'CONFLICT',
    )
    expect((await work.admin.serviceOrders.detail({ id })).actions).toContain('deliverReport')
    expect(await work.admin.serviceOrders.deliverReport({ id, note: 'Report for month 1', fileIds: [] })).toMatchObject(
      {
        periodNumber: 1,
      },
    )
    // Nothing left to report until the next paid month.
    expect(await work.admin.serviceOrders.deliverReport({ id, note: 'again', fileIds: [] }).catch((e) => e.code)).toBe(
      'CONFLICT',
    )

    // Two months on the test clock: two renewals paid, two more periods, each due its own report.
    const secondEnd = (() => {
      const d = new Date(firstEnd * 1000)
      d.setUTCMonth(d.getUTCMonth() + 1)
      return Math.floor(d.getTime() / 1000)
    })()
    expect(new Set(await fake.advance(secondEnd - fake.billing.now + HOUR))).toEqual(new Set([200]))
    // Redelivering a paid invoice opens nothing twice.
    const latest = fake.billing.invoices.get(fake.billing.retrieve(subscriptionId!)!.latest_invoice!)!
    expect(await fake.deliver('invoice.paid', latest)).toBe(200)
    // Each renewal has its own numbered tax invoice (the first month's is the order's), once despite the redelivery.
    const invoices = await db()
      .selectFrom('invoices')
      .select(['number', 'order_id', 'stripe_invoice_id', 'total_minor', 'lines'])
      .where('user_id', '=', buyer.id)
      .orderBy('number')
      .execute()
    expect(invoices).toHaveLength(3)
    expect(invoices[0]).toMatchObject({ order_id: expect.any(String), stripe_invoice_id: null })
    const renewals = invoices.slice(1)
    expect(renewals.map((inv) => [inv.order_id, inv.total_minor])).toEqual([
      [null, pkg.price_minor],
      [null, pkg.price_minor],
    ])
    expect(renewals.map((inv) => inv.stripe_invoice_id)).toContain(latest.id)
    expect(renewals.map((inv) => (inv.lines as { title: string }[])[0]!.title)).toEqual([
      `${listed!.title} (monthly)`,
      `${listed!.title} (monthly)`,
    ])
    // Numbered in the yearly series (the fake clock may cross into the next year): three different numbers.
    expect(invoices.every((inv) => /^INV-\d{4}-\d{6}$/.test(inv.number))).toBe(true)
    expect(new Set(invoices.map((inv) => inv.number)).size).toBe(3)
    // The buyer finds them under the order that started the subscription, and may open each.
    const [history] = await caller.purchases.orders()
    expect(history!.invoice?.number).toBe(invoices[0]!.number)
    expect(history!.renewalInvoices.map((inv) => inv.number).sort()).toEqual(renewals.map((inv) => inv.number).sort())
    const document = await caller.purchases.document({ kind: 'invoice', id: history!.renewalInvoices[0]!.id })
    expect(document).toMatchObject({ number: history!.renewalInvoices[0]!.number })

    const detail = await work.admin.serviceOrders.detail({ id })
    expect(detail.status).toBe('in_progress')
    expect(detail.periods.map((p) => [p.number, p.deliveredAt !== null])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ])
    expect(detail.periods[1]!.startsAt).toBe(new Date(firstEnd * 1000).toISOString())
    expect(detail.periods[1]!.dueAt).toBe(new Date(secondEnd * 1000).toISOString())
    // The order is due by its earliest unreported month (so the queue sorts and flags it like any delivery).
    expect(detail.dueAt).toBe(detail.periods[1]!.dueAt)
    const queue = await work.admin.serviceOrders.list({ serviceId: 'seo-management' })
    expect(queue.items.find((item) => item.id === id)).toMatchObject({
      dueAt: detail.periods[1]!.dueAt,
      recurring: true,
      period: { number: 3, deliveredAt: null },
    })

    await work.admin.serviceOrders.deliverReport({ id, note: 'Report for month 2', fileIds: [] })
    await work.admin.serviceOrders.deliverReport({ id, note: 'Report for month 3', fileIds: [] })
    const reported = await caller.serviceOrders.detail({ id })
    expect(reported.deliveries.map((d) => [d.periodNumber, d.note])).toEqual([
      [1, 'Report for month 1'],
      [2, 'Report for month 2'],
      [3, 'Report for month 3'],
    ])
    expect(await mails(buyer.email, 'service-order-report')).toHaveLength(3)
    expect(reported.dueAt).toBeNull()

    // The buyer cancels: Stripe stops at the period's end; the order says when it ends and runs until then.
    const cancelled = await caller.serviceOrders.cancelSubscription({ id })
    const thirdEnd = fake.billing.retrieve(subscriptionId!)!.items.data[0]!.current_period_end
    expect(cancelled.endsAt).toBe(new Date(thirdEnd * 1000).toISOString())
    expect((await fake.flush()).filter((status) => status !== 200)).toEqual([])
    expect((await caller.serviceOrders.detail({ id })).endsAt).toBe(cancelled.endsAt)
    expect(await statusOf(id)).toBe('in_progress')

    await fake.advance(thirdEnd - fake.billing.now + HOUR)
    const closed = await caller.serviceOrders.detail({ id })
    expect(closed.status).toBe('completed')
    expect(closed.periods).toHaveLength(3) // no month after the cancelled one
    expect(closed.history.at(-1)).toMatchObject({ from: 'in_progress', to: 'completed' })
    expect(await mails(buyer.email, 'service-order-completed')).toHaveLength(1)
    expect(await caller.serviceOrders.cancelSubscription({ id }).catch((e) => e.code)).toBe('CONFLICT')
  })

  it('a month paid by bank transfer opens one period; no subscription to cancel', async () => {
    const { caller, id } = await buyPackage('seo-management', 'Starter SEO Monthly', 'bank_transfer')
    const detail = await caller.serviceOrders.detail({ id })
    expect(detail.recurring).toBe(true)
    expect(detail.periods.map((p) => p.number)).toEqual([1])
    expect(await caller.serviceOrders.cancelSubscription({ id }).catch((e) => e.code)).toBe('PRECONDITION_FAILED')
  })

  it('a staff cancel ends the subscription at Stripe at once', async () => {
    const { buyer, caller, id, subscriptionId } = await buyPackage('seo-management', 'Starter SEO Monthly')
    const result = await (await staff(admin)).admin.serviceOrders.cancel({ id, refund: false })
    expect(result).toMatchObject({ refund: null, noRefund: 'not_requested' })
    expect(fake.billing.retrieve(subscriptionId!)?.status).toBe('canceled')
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    expect((await caller.serviceOrders.detail({ id })).status).toBe('cancelled')
    // The buyer is told to reply with questions: the reply reaches the staff address, not the no-reply sender.
    expect(await mails(buyer.email, 'service-order-cancelled')).toEqual([
      expect.objectContaining({
        text_body: expect.stringContaining('Reply to this e-mail if you have questions.'),
        reply_to: 'support@skillforge.example',
      }),
    ])
  })
})

describe('a staff cancel of monthly SEO management refunds the month in progress (decision 0104)', () => {
  const refundsOfIntent = (intent: string) =>
    [...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount)
  const monthRefunds = (stripeInvoiceId: string) =>
    db()
      .selectFrom('subscription_invoice_refunds as r')
      .innerJoin('subscription_invoices as si', 'si.id', 'r.subscription_invoice_id')
      .select(['r.stripe_refund_id', 'r.amount_minor'])
      .where('si.stripe_invoice_id', '=', stripeInvoiceId)
      .execute()
  /** Bought, then a month on: the second month paid by its own Stripe invoice and payment. */
  async function inSecondMonth() {
    const bought = await buyPackage('seo-management', 'Starter SEO Monthly')
    const sub = fake.billing.retrieve(bought.subscriptionId!)!
    expect(new Set(await fake.advance(sub.items.data[0]!.current_period_end - fake.billing.now + HOUR))).toEqual(
      new Set([200]),
    )
    const month = fake.billing.invoices.get(fake.billing.retrieve(bought.subscriptionId!)!.latest_invoice!)!
    expect(month.billing_reason).toBe('subscription_cycle')
    return { ...bought, month, monthIntent: fake.invoicePayments.get(month.id)! }
  }

  it('in the first month, its order line: the checkout’s payment', async () => {
    const { pkg, orderId, id, subscriptionId } = await buyPackage('seo-management', 'Starter SEO Monthly')
    const intent = (
      await db().selectFrom('orders').select('stripe_payment_intent_id').where('id', '=', orderId).executeTakeFirst()
    )?.stripe_payment_intent_id
    const result = await (await staff(admin)).admin.serviceOrders.cancel({ id })
    expect(result.refund).toMatchObject({ amountMinor: pkg.price_minor, status: 'refunded' })
    expect(refundsOfIntent(intent!)).toEqual([pkg.price_minor])
    expect((await (await staff(admin)).admin.serviceOrders.detail({ id })).periods.map((p) => p.refund)).toEqual([
      'refunded',
    ])
    expect(fake.billing.retrieve(subscriptionId!)?.status).toBe('canceled')
    expect(await statusOf(id)).toBe('cancelled')
  })

  it('in a later month, what Stripe’s invoice for it took: credit note, mail and audit, once; earlier months stay paid', async () => {
    const { buyer, caller, pkg, orderId, id, subscriptionId, month, monthIntent } = await inSecondMonth()
    const result = await (await staff(admin)).admin.serviceOrders.cancel({ id })
    expect(result).toMatchObject({ noRefund: null, refund: { month: 2, amountMinor: month.amount_paid } })
    expect(result.refund?.creditNoteNumber).toMatch(/^CN-\d{4}-\d{6}$/)
    expect(refundsOfIntent(monthIntent)).toEqual([month.amount_paid])
    const [recorded] = await monthRefunds(month.id)
    expect(recorded).toMatchObject({ amount_minor: month.amount_paid })
    expect(fake.billing.retrieve(subscriptionId!)?.status).toBe('canceled')
    expect(await statusOf(id)).toBe('cancelled')
    // The first month (the order's line) stays paid; the credit note sits under the service's order.
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ id: orderId, status: 'paid', refundedMinor: 0 })
    expect(order?.creditNotes).toEqual([
      { id: expect.any(String), number: result.refund!.creditNoteNumber, totalMinor: pkg.price_minor },
    ])
    expect(await mails(buyer.email, 'order_refunded')).toHaveLength(1)
    // Staff find it on the order too; the buyer's and staff's months say which month came back.
    expect((await (await staff(admin)).admin.orders.detail({ id: orderId })).creditNotes).toEqual(order?.creditNotes)
    expect((await caller.serviceOrders.detail({ id })).periods.map((p) => p.refund)).toEqual([null, 'refunded'])
    expect((await (await staff(admin)).admin.serviceOrders.detail({ id })).periods.map((p) => p.refund)).toEqual([
      null,
      'refunded',
    ])
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity_id', '=', orderId)
      .where('action', '=', 'order.refund')
      .execute()
    expect(audit).toEqual([
      { action: 'order.refund', after: expect.objectContaining({ refundedMinor: pkg.price_minor }) },
    ])
    // Stripe's charge.refunded for it, and the subscription's end, record nothing more.
    expect(await fake.deliver('charge.refunded', fake.chargeOf(monthIntent))).toBe(200)
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    expect(await monthRefunds(month.id)).toEqual([recorded])
    expect(await mails(buyer.email, 'order_refunded')).toHaveLength(1)
    expect(await statusOf(id)).toBe('cancelled')
  })

  it('when Stripe cannot end the subscription nothing is cancelled, and the retry refunds the month once', async () => {
    const { id, subscriptionId, month, monthIntent } = await inSecondMonth()
    const admins = await staff(admin)
    fake.failNextCancel()
    expect(await admins.admin.serviceOrders.cancel({ id }).catch((e) => e.code)).toBe('BAD_GATEWAY')
    expect(await statusOf(id)).toBe('brief_needed')
    expect(await monthRefunds(month.id)).toEqual([])
    // Stripe made the refund; the retry's key answers it again, and it is recorded once.
    expect(refundsOfIntent(monthIntent)).toEqual([month.amount_paid])
    const result = await admins.admin.serviceOrders.cancel({ id })
    expect(result.refund).toMatchObject({ month: 2, amountMinor: month.amount_paid })
    expect(refundsOfIntent(monthIntent)).toEqual([month.amount_paid])
    expect(await monthRefunds(month.id)).toHaveLength(1)
    expect(fake.billing.retrieve(subscriptionId!)?.status).toBe('canceled')
    expect(await statusOf(id)).toBe('cancelled')
  })

  it('a month already refunded in the Stripe dashboard is not refunded again', async () => {
    const { caller, id, month, monthIntent } = await inSecondMonth()
    const refunds = async () => (await caller.serviceOrders.detail({ id })).periods.map((p) => p.refund)
    fake.dashboardRefund(monthIntent, 100)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(monthIntent))).toBe(200)
    expect(await refunds()).toEqual([null, 'partly_refunded'])
    fake.dashboardRefund(monthIntent, month.amount_paid - 100)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(monthIntent))).toBe(200)
    expect(await refunds()).toEqual([null, 'refunded'])
    const result = await (await staff(admin)).admin.serviceOrders.cancel({ id })
    expect(result).toMatchObject({ refund: null, noRefund: 'already_refunded' })
    expect(refundsOfIntent(monthIntent)).toEqual([100, month.amount_paid - 100])
    expect(await statusOf(id)).toBe('cancelled')
  })
})

const statusOf = async (id: string) =>
  (await db().selectFrom('service_orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

describe('a staff cancel of a paid order', () => {
  it('refunds that line through Stripe: credit note, e-mail and audit, in one go', async () => {
    const { buyer, caller, pkg, orderId, id } = await buyPackage('uk-company-formation', 'Standard')
    const intent = (
      await db().selectFrom('orders').select('stripe_payment_intent_id').where('id', '=', orderId).executeTakeFirst()
    )?.stripe_payment_intent_id
    expect(intent).toMatch(/^pi_/)

    const result = await (await staff(admin)).admin.serviceOrders.cancel({ id })
    expect(result.refund).toMatchObject({ amountMinor: pkg.price_minor, status: 'refunded' })
    expect(result.refund?.creditNoteNumber).toMatch(/^CN-\d{4}-\d{6}$/)
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount)).toEqual([
      pkg.price_minor,
    ])
    expect(await statusOf(id)).toBe('cancelled')
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({ status: 'refunded', refundedMinor: pkg.price_minor })
    expect(order?.creditNotes.map((note) => note.number)).toEqual([result.refund!.creditNoteNumber])
    expect(await mails(buyer.email, 'order_refunded')).toHaveLength(1)
    expect(await mails(buyer.email, 'service-order-cancelled')).toHaveLength(1)
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('entity_id', 'in', [id, orderId])
      .orderBy('created_at')
      .execute()
    expect(audit.map((row) => row.action).sort()).toEqual(['order.refund', 'service_order.cancel'])
    expect(new Set(audit.map((row) => row.actor_id))).toEqual(new Set([admin.id]))
    // A second cancel finds nothing to do and refunds nothing more.
    expect(await (await staff(admin)).admin.serviceOrders.cancel({ id }).catch((e) => e.code)).toBe('CONFLICT')
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === intent)).toHaveLength(1)
  })

  it('a bank transfer needs the refund’s reference; without it nothing is cancelled', async () => {
    const { id, orderId, pkg } = await buyPackage('uk-company-formation', 'Standard', 'bank_transfer')
    const admins = await staff(admin)
    expect(await admins.admin.serviceOrders.cancel({ id }).catch((e) => e.code)).toBe('BAD_REQUEST')
    expect(await statusOf(id)).toBe('brief_needed')
    const result = await admins.admin.serviceOrders.cancel({ id, reference: 'BACS 4411' })
    expect(result.refund).toMatchObject({ amountMinor: pkg.price_minor, status: 'refunded' })
    const refund = await db()
      .selectFrom('refunds')
      .select(['method', 'reference', 'amount_minor'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(refund).toEqual({ method: 'manual', reference: 'BACS 4411', amount_minor: pkg.price_minor })
  })

  it('refunds nothing when staff say so', async () => {
    const { id, orderId } = await buyPackage('uk-company-formation', 'Standard')
    const result = await (await staff(admin)).admin.serviceOrders.cancel({ id, refund: false })
    expect(result).toEqual({ id, refund: null, noRefund: 'not_requested' })
    expect(await statusOf(id)).toBe('cancelled')
    const refunds = await db().selectFrom('refunds').select('id').where('order_id', '=', orderId).execute()
    expect(refunds).toEqual([])
  })
})
