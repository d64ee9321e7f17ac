// A refund or a dispute of a paid month of monthly SEO management (decision 0104), against the real server, a real
// database and the fake Stripe with Stripe Tax on. Each month after the first is paid by its own Stripe invoice, which
// gets a numbered tax invoice; that month is now recorded with the payment that paid it, so charge.refunded of it (a
// refund made in the Stripe dashboard) is recorded once per Stripe refund with its tax part, gets a credit note the
// buyer finds under the service's order, and the refund mail; a lost dispute records the money the bank took back with
// a chargeback credit note. None of it is Premium's revenue, and none of it ends the service. Months renewed before
// the change are recorded by the migration from their invoice, and a refund of one finds it through Stripe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as migration from '../../../db/migrations/2026_12_20_0000_service_renewal_payments.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { premiumRevenueOfMonth } from '../../../src-server/orders/premium-revenue.ts'
import { allocate } from '../../../src-shared/money.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { mailsTo } from '../../support/outbox.ts'
import { type PaymentsServer, startPaymentsServer, webhookOutcome } from '../../support/payments-server.ts'
import { renewedServiceBuyer } from '../../support/renewals.ts'
import { shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let admin: TestUser
const db = () => shop.database.db

beforeAll(async () => {
  shop = await startPaymentsServer({ stripeTax: true })
  fake = shop.fake
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => shop.close())

const monthRow = (stripeInvoiceId: string) =>
  db()
    .selectFrom('subscription_invoices as si')
    .innerJoin('invoices as i', 'i.stripe_invoice_id', 'si.stripe_invoice_id')
    .select(['si.id', 'si.subscription_id', 'si.service_order_id', 'si.amount_minor', 'si.tax_minor'])
    .select(['si.stripe_payment_intent_id', 'i.number', 'i.total_minor'])
    .where('si.stripe_invoice_id', '=', stripeInvoiceId)
    .executeTakeFirstOrThrow()
const givenBack = (subscriptionInvoiceId: string) =>
  db()
    .selectFrom('subscription_invoice_refunds')
    .select(['stripe_refund_id', 'dispute_id', 'amount_minor', 'tax_minor'])
    .where('subscription_invoice_id', '=', subscriptionInvoiceId)
    .orderBy('created_at')
    .execute()
/** The mails of one kind queued for an address: subject and text. */
const mails = async (kind: string, to: string) =>
  (await mailsTo(db(), to)).filter((mail) => mail.kind === kind).map(({ kind: _, ...mail }) => mail)
const serviceOrder = (id: string) =>
  db().selectFrom('service_orders').select(['status', 'title']).where('id', '=', id).executeTakeFirstOrThrow()
async function premiumThisMonth(now = clock.now()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  const usd = (await premiumRevenueOfMonth(db(), start, end)).find((row) => row.currency === 'USD')
  return { revenue: usd?.revenueMinor ?? 0, refunded: usd?.refundedMinor ?? 0 }
}
const outcomeOf = (type: string, object: Record<string, unknown>) => webhookOutcome(fake, type, object)

describe('a refund of a paid month of a recurring service', () => {
  it('gets its credit note under the service’s order and the refund mail, once, and ends nothing', async () => {
    const { user, caller, orderId, serviceOrderId, renewal, paymentIntent } = await renewedServiceBuyer(shop)
    const { title } = await serviceOrder(serviceOrderId)
    // The month is recorded with the payment that paid it, under its service order (no membership).
    const month = await monthRow(renewal.id)
    expect(month).toMatchObject({
      subscription_id: null,
      service_order_id: serviceOrderId,
      amount_minor: renewal.amount_paid,
      total_minor: renewal.amount_paid,
      stripe_payment_intent_id: paymentIntent,
    })
    expect(month.tax_minor).toBeGreaterThan(0)
    const premiumBefore = await premiumThisMonth()
    const weights = [month.amount_minor - month.tax_minor, month.tax_minor]

    // A partial refund in the Stripe dashboard, delivered twice.
    const first = fake.dashboardRefund(paymentIntent, 700)
    expect(await outcomeOf('charge.refunded', fake.chargeOf(paymentIntent))).toBe('processed')
    expect(await outcomeOf('charge.refunded', fake.chargeOf(paymentIntent))).toBe('processed')
    const firstTax = allocate(700, weights)[1]!
    expect(await givenBack(month.id)).toEqual([
      { stripe_refund_id: first.id, dispute_id: null, amount_minor: 700, tax_minor: firstTax },
    ])
    // The buyer finds the credit note under the order that bought the service, beside the month's invoice.
    const history = (await caller.purchases.orders()).find((order) => order.id === orderId)!
    expect(history.renewalInvoices.map((invoice) => invoice.number)).toContain(month.number)
    expect(history.creditNotes).toEqual([{ id: expect.any(String), number: expect.any(String), totalMinor: 700 }])
    expect(await caller.purchases.document({ kind: 'credit_note', id: history.creditNotes[0]!.id })).toMatchObject({
      kind: 'credit_note',
      invoiceNumber: month.number,
      totalMinor: 700,
      lines: [{ title: `Refund: ${title} (monthly)` }],
    })
    // Staff's dialogs about that order link the same documents: the month's invoice and its credit note.
    const staffView = await (await shopCaller(db(), admin, shop.payments)).admin.orders.detail({ id: orderId })
    expect(staffView.renewalInvoices).toEqual(history.renewalInvoices)
    expect(staffView.creditNotes).toEqual(history.creditNotes)
    const refundMails = await mails('order_refunded', user.email)
    expect(refundMails).toHaveLength(1)
    expect(refundMails[0]!.text_body).toContain(`${title} (monthly)`)

    // The rest: the two refunds give back exactly the month's tax; the service goes on (staff end it, or the buyer).
    fake.dashboardRefund(paymentIntent, month.amount_minor - 700)
    expect(await outcomeOf('charge.refunded', fake.chargeOf(paymentIntent))).toBe('processed')
    const refunds = await givenBack(month.id)
    expect(refunds.map((refund) => refund.amount_minor)).toEqual([700, month.amount_minor - 700])
    expect(refunds.reduce((sum, refund) => sum + refund.tax_minor, 0)).toBe(month.tax_minor)
    expect((await serviceOrder(serviceOrderId)).status).toBe('brief_needed')
    expect(fake.calls.some((call) => call.startsWith('DELETE /v1/subscriptions/'))).toBe(false)
    // A service's month is not Premium's: neither its payment (no member paid anything in the month it was paid, on
    // Stripe's test clock) nor its refunds moved the pool's months.
    expect(await premiumThisMonth()).toEqual(premiumBefore)
    expect((await premiumThisMonth(new Date(renewal.status_transitions.paid_at! * 1000))).revenue).toBe(0)
  })

  it('a month renewed before the change is recorded by the migration and its refund found through Stripe', async () => {
    const { user, serviceOrderId, renewal, paymentIntent } = await renewedServiceBuyer(shop)
    // As before the change: the month had its numbered invoice and period, and no row.
    await migration.down(db())
    expect(
      await db().selectFrom('subscription_invoices').select('id').where('stripe_invoice_id', '=', renewal.id).execute(),
    ).toEqual([])
    await migration.up(db())
    const month = await monthRow(renewal.id)
    expect(month).toMatchObject({
      subscription_id: null,
      service_order_id: serviceOrderId,
      amount_minor: renewal.amount_paid,
      stripe_payment_intent_id: null,
    })
    expect(month.tax_minor).toBe(
      renewal.total_taxes.reduce((sum: number, tax: { amount: number }) => sum + tax.amount, 0),
    )

    const refund = fake.dashboardRefund(paymentIntent, month.amount_minor)
    expect(await outcomeOf('charge.refunded', fake.chargeOf(paymentIntent))).toBe('processed')
    expect(await givenBack(month.id)).toEqual([
      { stripe_refund_id: refund.id, dispute_id: null, amount_minor: month.amount_minor, tax_minor: month.tax_minor },
    ])
    // Kept now, so the next refund of it is found without asking Stripe.
    expect((await monthRow(renewal.id)).stripe_payment_intent_id).toBe(paymentIntent)
    expect(await mails('order_refunded', user.email)).toHaveLength(1)
  })
})

describe('a dispute of a paid month of a recurring service', () => {
  it('alerts staff (nothing withheld); lost, the money taken back gets its chargeback credit note; the service goes on', async () => {
    const { user, caller, orderId, serviceOrderId, renewal, paymentIntent } = await renewedServiceBuyer(shop)
    const month = await monthRow(renewal.id)
    const { reference } = await db()
      .selectFrom('orders')
      .select('reference')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    const { title } = await serviceOrder(serviceOrderId)
    const dispute = fake.disputeOf(paymentIntent, 'needs_response', month.amount_minor)
    expect(await outcomeOf('charge.dispute.created', dispute)).toBe('processed')
    const alerts = (await mails('order_disputed', admin.email)).filter((mail) => mail.subject.endsWith(` ${reference}`))
    expect(alerts).toEqual([
      {
        subject: `Payment disputed: order ${reference}`,
        text_body: `The card payment of a month of ${title}, order ${reference} (invoice ${month.number}) is disputed (fraudulent; Stripe dispute ${dispute.id}).\n\nNothing has been withheld: the service goes on unless you cancel it. Respond in the Stripe dashboard.`,
      },
    ])

    expect(await outcomeOf('charge.dispute.closed', { ...dispute, status: 'lost' })).toBe('processed')
    expect(await outcomeOf('charge.dispute.closed', { ...dispute, status: 'lost' })).toBe('processed') // redelivered: nothing more
    expect(await givenBack(month.id)).toEqual([
      { stripe_refund_id: null, dispute_id: dispute.id, amount_minor: month.amount_minor, tax_minor: month.tax_minor },
    ])
    const history = (await caller.purchases.orders()).find((order) => order.id === orderId)!
    expect(history.creditNotes).toHaveLength(1)
    expect(await caller.purchases.document({ kind: 'credit_note', id: history.creditNotes[0]!.id })).toMatchObject({
      totalMinor: month.amount_minor,
      lines: [{ title: `Chargeback (dispute lost): ${title} (monthly)` }],
    })
    // The buyer's bank told them; no refund mail. The service is not ended by it.
    expect(await mails('order_refunded', user.email)).toEqual([])
    expect((await serviceOrder(serviceOrderId)).status).toBe('brief_needed')
  })
})
