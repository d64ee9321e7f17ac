// A dispute of a Stripe renewal's payment (decision 0089), against the real server, a real database and the fake Stripe
// with Stripe Tax on: done as an order dispute does to a plan order. charge.dispute.created is remembered against the
// renewal, withholds the member's Premium and alerts staff (once); a won dispute gives Premium back; a lost one keeps
// it withheld, records the money the bank took back among the renewal's refunds (its tax part allocated once, a
// chargeback credit note, out of the Premium pool of the month net of tax), no refund mail, and — all of the renewal
// taken back — ends the plan, cancelled at Stripe. The plan's order itself is not disputed and stays as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as clock from '../../../src-server/kernel/clock.ts'
import { premiumRevenueOfMonth } from '../../../src-server/orders/premium-revenue.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { allocate } from '../../../src-shared/money.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer, webhookOutcome } from '../../support/payments-server.ts'
import { renewedMember } from '../../support/renewals.ts'

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

const renewalRow = (stripeInvoiceId: string) =>
  db()
    .selectFrom('subscription_invoices as si')
    .leftJoin('invoices as i', 'i.stripe_invoice_id', 'si.stripe_invoice_id')
    .select(['si.id', 'si.amount_minor', 'si.tax_minor', 'i.number'])
    .where('si.stripe_invoice_id', '=', stripeInvoiceId)
    .executeTakeFirstOrThrow()
const disputeRow = (id: string) =>
  db()
    .selectFrom('order_disputes')
    .select(['order_id', 'subscription_invoice_id', 'status', 'closed'])
    .where('id', '=', id)
    .executeTakeFirst()
const orderOf = (orderId: string) =>
  db().selectFrom('orders').select(['reference', 'status']).where('id', '=', orderId).executeTakeFirstOrThrow()
const subscriptionOf = (orderId: string) =>
  db()
    .selectFrom('subscriptions')
    .select(['status', 'end_reason'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow()
const mails = (kind: string, to: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('kind', '=', kind)
    .where('to_address', '=', to)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
async function refundedThisMonth() {
  const now = clock.now()
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  return (await premiumRevenueOfMonth(db(), start, end)).find((row) => row.currency === 'USD')?.refundedMinor ?? 0
}
const outcomeOf = (type: string, object: Record<string, unknown>) => webhookOutcome(fake, type, object)

describe('a dispute of a Stripe renewal’s payment', () => {
  it('is recorded against the renewal, withholds Premium and alerts staff once; won, Premium comes back', async () => {
    const { user, orderId, renewal, paymentIntent } = await renewedMember(shop)
    const invoice = await renewalRow(renewal.id)
    const { reference } = await orderOf(orderId)
    expect(await isPremium(db(), user)).toBe(true)

    const opened = fake.disputeOf(paymentIntent, 'needs_response', invoice.amount_minor, {
      id: `dp_open_${invoice.id}`,
    })
    expect(await outcomeOf('charge.dispute.created', opened)).toBe('processed')
    expect(await disputeRow(opened.id as string)).toEqual({
      order_id: null,
      subscription_invoice_id: invoice.id,
      status: 'needs_response',
      closed: false,
    })
    expect(await isPremium(db(), user)).toBe(false)
    const alert = {
      subject: `Payment disputed: order ${reference}`,
      text_body: `The card payment of a renewal of order ${reference} (invoice ${invoice.number}) is disputed (fraudulent; Stripe dispute ${opened.id}).\n\nThe member's Premium has been withheld until the dispute is decided. Respond in the Stripe dashboard.`,
    }
    const alerts = async () =>
      (await mails('order_disputed', admin.email)).filter((mail) => mail.subject.endsWith(` ${reference}`))
    expect(await alerts()).toEqual([alert])
    // Another event about the same dispute: nothing new.
    expect(await outcomeOf('charge.dispute.created', { ...opened, status: 'under_review' })).toBe('processed')
    expect(await alerts()).toEqual([alert])
    // The plan's own order was not disputed.
    expect((await orderOf(orderId)).status).toBe('paid')

    expect(await outcomeOf('charge.dispute.closed', { ...opened, status: 'won' })).toBe('processed')
    expect(await disputeRow(opened.id as string)).toMatchObject({ status: 'won', closed: true })
    expect(await isPremium(db(), user)).toBe(true)
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'active' })
    expect(await mails('order_refunded', user.email)).toEqual([])
  })

  it('lost, records the money taken back with its credit note, leaves the Premium pool and ends the plan', async () => {
    const { user, caller, orderId, renewal, paymentIntent, stripeSubscription } = await renewedMember(shop)
    const invoice = await renewalRow(renewal.id)
    const pooledBefore = await refundedThisMonth()
    const dispute = fake.disputeOf(paymentIntent, 'needs_response', invoice.amount_minor, { fee: 1500 })
    expect(await outcomeOf('charge.dispute.created', dispute)).toBe('processed')

    const before = fake.calls.length
    expect(await outcomeOf('charge.dispute.closed', { ...dispute, status: 'lost' })).toBe('processed')
    expect(fake.calls.slice(before)).toContain(`DELETE /v1/subscriptions/${stripeSubscription}`)
    expect(new Set(await fake.flush())).toEqual(new Set([200]))

    const tax = allocate(invoice.amount_minor, [invoice.amount_minor - invoice.tax_minor, invoice.tax_minor])[1]!
    expect(tax).toBe(invoice.tax_minor)
    expect(
      await db()
        .selectFrom('subscription_invoice_refunds')
        .select(['stripe_refund_id', 'dispute_id', 'amount_minor', 'tax_minor'])
        .where('subscription_invoice_id', '=', invoice.id)
        .execute(),
    ).toEqual([{ stripe_refund_id: null, dispute_id: dispute.id, amount_minor: invoice.amount_minor, tax_minor: tax }])
    const notes = await db()
      .selectFrom('credit_notes as cn')
      .innerJoin('invoices as i', 'i.id', 'cn.invoice_id')
      .select(['cn.total_minor', 'cn.lines', 'i.stripe_invoice_id'])
      .where('cn.user_id', '=', user.id)
      .execute()
    expect(notes).toEqual([
      {
        total_minor: invoice.amount_minor,
        stripe_invoice_id: renewal.id,
        lines: [expect.objectContaining({ title: 'Chargeback (dispute lost): Basic (monthly)' })],
      },
    ])
    expect(await refundedThisMonth()).toBe(pooledBefore + invoice.amount_minor - tax)
    expect(await isPremium(db(), user)).toBe(false)
    expect(await subscriptionOf(orderId)).toEqual({ status: 'cancelled', end_reason: 'refund' })
    expect((await orderOf(orderId)).status).toBe('paid')
    // The plan order keeps its own status (its checkout was paid); the plan's story says what the dispute took back.
    const [order] = await caller.purchases.orders()
    expect(order!.subscription!.payments).toEqual([
      expect.objectContaining({
        amountMinor: invoice.amount_minor,
        refundedMinor: 0,
        disputedMinor: invoice.amount_minor,
      }),
    ])
    // The bank told the member: no refund mail.
    expect(await mails('order_refunded', user.email)).toEqual([])

    // A redelivery records nothing more.
    expect(await outcomeOf('charge.dispute.closed', { ...dispute, status: 'lost' })).toBe('processed')
    expect(await refundedThisMonth()).toBe(pooledBefore + invoice.amount_minor - tax)
  })

  it('of a renewal recorded without its payment is found through Stripe’s invoice payments, and keeps it', async () => {
    const { user, renewal, paymentIntent } = await renewedMember(shop)
    // As a renewal recorded before its payment was kept (or while Stripe could not say which it was).
    await db()
      .updateTable('subscription_invoices')
      .set({ stripe_payment_intent_id: null })
      .where('stripe_invoice_id', '=', renewal.id)
      .execute()
    const invoice = await renewalRow(renewal.id)
    const dispute = fake.disputeOf(paymentIntent, 'needs_response', invoice.amount_minor)
    const before = fake.calls.length
    expect(await outcomeOf('charge.dispute.created', dispute)).toBe('processed')
    expect(fake.calls.slice(before)).toEqual(['GET /v1/invoice_payments'])
    expect(await disputeRow(dispute.id as string)).toMatchObject({ subscription_invoice_id: invoice.id })
    expect(await isPremium(db(), user)).toBe(false)
    const kept = await db()
      .selectFrom('subscription_invoices')
      .select('stripe_payment_intent_id')
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow()
    expect(kept.stripe_payment_intent_id).toBe(paymentIntent)
    // Kept: its 'closed' asks Stripe nothing.
    const next = fake.calls.length
    expect(await outcomeOf('charge.dispute.closed', { ...dispute, status: 'won' })).toBe('processed')
    expect(fake.calls.slice(next)).toEqual([])
    expect(await isPremium(db(), user)).toBe(true)
  })
})
