// A service paid for and given back is not worked on (decision 0132): whichever way the money goes back — a staff
// refund of the whole order or of its line, a refund made in Stripe's dashboard (charge.refunded), a lost dispute, a
// dashboard refund or a dispute lost in part whose lines staff name later — the service orders of the lines given back are cancelled in the same
// transaction (history, audit, the buyer's e-mail), with one refund only; a monthly service's subscription ends at
// Stripe too; a completed order keeps its status, and its page says the payment was given back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { ukBrief } from '../../support/service-orders.ts'
import { servicePackage, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
let editor: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
  editor = await createUser(db(), { role: 'editor' })
})
afterAll(() => shop.close())

const staff = (user: TestUser) => shopCaller(db(), user, payments)

/** A buyer who bought these packages together by card (Stripe's checkout and its events delivered). */
async function buyByCard(...packages: [serviceId: string, packageName: string][]) {
  const buyer = await createUser(db())
  const caller = await shopCaller(db(), buyer, payments)
  const pkgs = []
  for (const [serviceId, name] of packages) {
    const pkg = await servicePackage(db(), serviceId, name)
    pkgs.push(pkg)
    await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
  }
  const started = await caller.payments.start({ currency: pkgs[0]!.currency as 'USD' | 'GBP', method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  const session = fake.completeSession(sessionIdOf(started.url))
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect((await fake.flush()).filter((status) => status !== 200)).toEqual([])
  const order = await db()
    .selectFrom('orders')
    .select(['id', 'stripe_payment_intent_id', 'captured_minor'])
    .where('id', '=', started.orderId)
    .executeTakeFirstOrThrow()
  const serviceOrders = await db()
    .selectFrom('service_orders')
    .innerJoin('order_items as i', (join) =>
      join
        .onRef('i.order_id', '=', 'service_orders.order_id')
        .onRef('i.service_package_id', '=', 'service_orders.service_package_id'),
    )
    .select(['service_orders.id', 'i.id as line_id', 'service_orders.service_package_id'])
    .where('service_orders.order_id', '=', order.id)
    .execute()
  const ids = pkgs.map((pkg) => serviceOrders.find((row) => row.service_package_id === pkg.id)!)
  return {
    buyer,
    caller,
    orderId: order.id,
    intent: order.stripe_payment_intent_id!,
    captured: order.captured_minor,
    orders: ids.map((row) => ({ id: row.id, lineId: row.line_id })),
    subscriptionId: session.subscription ?? null,
  }
}

const statusOf = async (id: string) =>
  (await db().selectFrom('service_orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

const refundsAtStripe = (intent: string) =>
  [...fake.refunds.values()].filter((refund) => refund.payment_intent === intent).map((refund) => refund.amount)

const cancelMails = (to: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', 'service-order-cancelled')
    .execute()

const lastEvent = (id: string) =>
  db()
    .selectFrom('service_order_events')
    .select(['from_status', 'to_status', 'actor_id'])
    .where('service_order_id', '=', id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()

const serviceAudit = (id: string) =>
  db()
    .selectFrom('audit_log')
    .select(['action', 'actor_id', 'after'])
    .where('entity_type', '=', 'service_order')
    .where('entity_id', '=', id)
    .execute()

describe('a refunded service order', () => {
  it('a staff refund of the whole order cancels its service order: one refund, the buyer told, audited', async () => {
    const { buyer, caller, orderId, intent, captured, orders } = await buyByCard(['uk-company-formation', 'Premium'])
    const { id } = orders[0]!
    const refund = await (await staff(admin)).admin.orders.refund({ orderId })
    expect(refund).toMatchObject({ amountMinor: captured, status: 'refunded' })

    expect(await statusOf(id)).toBe('cancelled')
    expect(await lastEvent(id)).toEqual({ from_status: 'brief_needed', to_status: 'cancelled', actor_id: admin.id })
    expect(await serviceAudit(id)).toEqual([
      { action: 'service_order.cancel', actor_id: admin.id, after: { status: 'cancelled', cause: 'refund' } },
    ])
    const [mail, ...more] = await cancelMails(buyer.email)
    expect(more).toEqual([])
    expect(mail?.text_body).toContain('cancelled because its payment was refunded')
    expect(mail?.text_body).toContain(`${defaultAppConfig.publicUrl}/account/services/${id}`)
    expect(refundsAtStripe(intent)).toEqual([captured])

    // The buyer can no longer send the brief, and staff see no work to do and why.
    await expect(caller.serviceOrders.submitBrief({ id, brief: ukBrief })).rejects.toMatchObject({ code: 'CONFLICT' })
    const detail = await (await staff(editor)).admin.serviceOrders.detail({ id })
    expect(detail.actions).toEqual([])
    expect(detail.paymentGivenBack).toEqual({ at: expect.any(String), byDispute: false })
    expect(await (await staff(editor)).admin.serviceOrders.start({ id }).catch((e) => e.code)).toBe('CONFLICT')

    // Stripe's charge.refunded for that refund records nothing more and cancels nothing twice.
    expect(await fake.deliver('charge.refunded', fake.chargeOf(intent))).toBe(200)
    expect(refundsAtStripe(intent)).toEqual([captured])
    expect(await cancelMails(buyer.email)).toHaveLength(1)
  })

  it('a refund of one line cancels only that line’s service order; a delivered one too, so no revision is asked', async () => {
    const { caller, orderId, orders } = await buyByCard(
      ['usa-company-formation', 'Wyoming LLC Starter'],
      ['seo-audit', 'Essential Audit'],
    )
    const [first, second] = orders as [{ id: string; lineId: string }, { id: string; lineId: string }]
    const admins = await staff(admin)
    await admins.admin.orders.refund({ orderId, lineIds: [first.lineId] })
    expect(await statusOf(first.id)).toBe('cancelled')
    expect(await statusOf(second.id)).toBe('brief_needed')
    expect((await admins.admin.serviceOrders.detail({ id: second.id })).paymentGivenBack).toBeNull()

    // The other one delivered, then given back with the rest of the money.
    await db()
      .updateTable('service_orders')
      .set({ status: 'delivered', delivered_at: new Date() })
      .where('id', '=', second.id)
      .execute()
    await admins.admin.orders.refund({ orderId })
    expect(await statusOf(second.id)).toBe('cancelled')
    await expect(caller.serviceOrders.requestRevision({ id: second.id, details: 'More' })).rejects.toMatchObject({
      code: 'CONFLICT',
    })
  })

  it('a refund made in the Stripe dashboard cancels it, by nobody (no audit, the history names no one)', async () => {
    const { buyer, intent, captured, orders } = await buyByCard(['uk-company-formation', 'Standard'])
    const { id } = orders[0]!
    fake.dashboardRefund(intent, captured)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(intent))).toBe(200)
    expect(await statusOf(id)).toBe('cancelled')
    expect(await lastEvent(id)).toEqual({ from_status: 'brief_needed', to_status: 'cancelled', actor_id: null })
    expect(await serviceAudit(id)).toEqual([])
    expect(await cancelMails(buyer.email)).toHaveLength(1)
    expect(refundsAtStripe(intent)).toEqual([captured])
  })

  it('a partial dashboard refund leaves it running until staff say it gave back its line', async () => {
    const { intent, orderId, orders } = await buyByCard(
      ['usa-company-formation', 'Wyoming LLC Starter'],
      ['seo-audit', 'Essential Audit'],
    )
    const [first, second] = orders as [{ id: string; lineId: string }, { id: string; lineId: string }]
    fake.dashboardRefund(intent, 100)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(intent))).toBe(200)
    expect([await statusOf(first.id), await statusOf(second.id)]).toEqual(['brief_needed', 'brief_needed'])
    const flagged = await db()
      .selectFrom('refunds')
      .select('id')
      .where('order_id', '=', orderId)
      .where('needs_line_assignment', '=', true)
      .executeTakeFirstOrThrow()
    await (await staff(admin)).admin.orders.assignRefundLines({ refundId: flagged.id, lineIds: [second.lineId] })
    expect([await statusOf(first.id), await statusOf(second.id)]).toEqual(['brief_needed', 'cancelled'])
    expect(await serviceAudit(second.id)).toMatchObject([{ action: 'service_order.cancel', actor_id: admin.id }])
  })

  it('a dispute lost for part of the payment leaves it running until staff say the bank took back its line', async () => {
    const { intent, orderId, orders } = await buyByCard(
      ['usa-company-formation', 'Wyoming LLC Starter'],
      ['seo-audit', 'Essential Audit'],
    )
    const [first, second] = orders as [{ id: string; lineId: string }, { id: string; lineId: string }]
    expect(await fake.deliver('charge.dispute.closed', fake.disputeOf(intent, 'lost', 100))).toBe(200)
    expect([await statusOf(first.id), await statusOf(second.id)]).toEqual(['brief_needed', 'brief_needed'])
    const flagged = await db()
      .selectFrom('refunds')
      .select('id')
      .where('order_id', '=', orderId)
      .where('method', '=', 'dispute')
      .where('needs_line_assignment', '=', true)
      .executeTakeFirstOrThrow()
    await (await staff(admin)).admin.orders.assignRefundLines({ refundId: flagged.id, lineIds: [second.lineId] })
    expect([await statusOf(first.id), await statusOf(second.id)]).toEqual(['brief_needed', 'cancelled'])
    expect(await serviceAudit(second.id)).toMatchObject([{ action: 'service_order.cancel', actor_id: admin.id }])
    const detail = await (await staff(admin)).admin.serviceOrders.detail({ id: second.id })
    expect(detail.paymentGivenBack).toEqual({ at: expect.any(String), byDispute: true })
    expect(refundsAtStripe(intent)).toEqual([])
  })

  it('a lost dispute cancels it, and its page says the bank took the payment back', async () => {
    const { buyer, intent, captured, orders } = await buyByCard(['uk-company-formation', 'Premium'])
    const { id } = orders[0]!
    expect(await fake.deliver('charge.dispute.closed', fake.disputeOf(intent, 'lost', captured))).toBe(200)
    expect(await statusOf(id)).toBe('cancelled')
    expect(await cancelMails(buyer.email)).toHaveLength(1)
    const detail = await (await staff(admin)).admin.serviceOrders.detail({ id })
    expect(detail.paymentGivenBack).toEqual({ at: expect.any(String), byDispute: true })
    expect(refundsAtStripe(intent)).toEqual([])
  })

  it('while a dispute is open its page tells staff to hold the work; a won dispute clears it', async () => {
    const { caller, intent, captured, orders } = await buyByCard(['uk-company-formation', 'Premium'])
    const { id } = orders[0]!
    const admins = await staff(admin)
    expect((await admins.admin.serviceOrders.detail({ id })).paymentDisputed).toBe(false)
    const dispute = fake.disputeOf(intent, 'needs_response', captured)
    expect(await fake.deliver('charge.dispute.created', dispute)).toBe(200)
    const open = await admins.admin.serviceOrders.detail({ id })
    expect(open.paymentDisputed).toBe(true)
    expect(open.paymentGivenBack).toBeNull()
    // The buyer's own view never says it (staff only).
    expect((await caller.serviceOrders.detail({ id })).paymentDisputed).toBe(false)
    const won = { ...dispute, status: 'won' }
    expect(await fake.deliver('charge.dispute.closed', won)).toBe(200)
    expect((await admins.admin.serviceOrders.detail({ id })).paymentDisputed).toBe(false)
  })

  it('a completed order refunded afterwards keeps its status, and says the payment was refunded', async () => {
    const { buyer, caller, orderId, orders } = await buyByCard(['uk-company-formation', 'Standard'])
    const { id } = orders[0]!
    await caller.serviceOrders.submitBrief({ id, brief: ukBrief })
    const editors = await staff(editor)
    await editors.admin.serviceOrders.start({ id })
    await editors.admin.serviceOrders.deliver({ id, note: 'Your certificate', fileIds: [] })
    await caller.serviceOrders.acceptDelivery({ id })
    await (await staff(admin)).admin.orders.refund({ orderId })
    expect(await statusOf(id)).toBe('completed')
    expect(await cancelMails(buyer.email)).toEqual([])
    expect((await editors.admin.serviceOrders.detail({ id })).paymentGivenBack).toEqual({
      at: expect.any(String),
      byDispute: false,
    })
  })

  it('a monthly service’s order refunded: the order is cancelled and its subscription ends at Stripe', async () => {
    const { orderId, orders, subscriptionId } = await buyByCard(['seo-management', 'Starter SEO Monthly'])
    const { id } = orders[0]!
    expect(subscriptionId).toMatch(/^sub_/)
    await (await staff(admin)).admin.orders.refund({ orderId })
    expect(await statusOf(id)).toBe('cancelled')
    expect(fake.billing.retrieve(subscriptionId!)?.status).toBe('canceled')
    // Stripe's deletion event finds the order cancelled and changes nothing.
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    expect(await statusOf(id)).toBe('cancelled')
  })

  it('a staff cancel still refunds once and mails the buyer once', async () => {
    const { buyer, intent, captured, orders } = await buyByCard(['uk-company-formation', 'Standard'])
    const { id } = orders[0]!
    await (await staff(admin)).admin.serviceOrders.cancel({ id })
    expect(refundsAtStripe(intent)).toEqual([captured])
    expect(await cancelMails(buyer.email)).toHaveLength(1)
    expect((await serviceAudit(id)).map((row) => row.action)).toEqual(['service_order.cancel'])
  })
})
