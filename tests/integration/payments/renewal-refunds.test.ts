// A refund of a Stripe renewal (decision 0089), against the real server, a real database and the fake Stripe with
// Stripe Tax on: a renewal is paid through its own payment (the invoice's invoice payment), which invoice.paid keeps;
// charge.refunded of that payment (a refund made in the Stripe dashboard) is recorded against the renewal once per
// Stripe refund, with its tax part allocated once (largest remainder, the refunds of a whole invoice give back exactly
// its tax), gets a credit note the member finds under the plan's order and can open, and comes off Premium's revenue
// of the refund's month net of its tax. A redelivery or a later event listing the same refunds records nothing more. A
// renewal recorded without its payment is found through Stripe's invoice payments of the refunded payment.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { premiumTakenBackAt } from '../../../src-server/flows/certificates.ts'
import { membershipPage, ordersForStaff } from '../../../src-server/flows/membership-view.ts'
import * as clock from '../../../src-server/kernel/clock.ts'
import { premiumRevenueOfMonth } from '../../../src-server/orders/premium-revenue.ts'
import { isPremium } from '../../../src-server/subscriptions/premium.ts'
import { formatDate } from '../../../src-shared/dates.ts'
import { allocate, formatMoney } from '../../../src-shared/money.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { renewedMember as renewedOf } from '../../support/renewals.ts'

let shop: PaymentsServer
let fake: FakeStripe
const db = () => shop.database.db
const DAY = 86_400

beforeAll(async () => {
  shop = await startPaymentsServer({ stripeTax: true })
  ;({ fake } = shop)
})
afterAll(() => shop.close())
afterEach(() => clock.resetClock())

const renewedMember = () => renewedOf(shop)

const recorded = (stripeInvoiceId: string) =>
  db()
    .selectFrom('subscription_invoices')
    .select(['id', 'amount_minor', 'tax_minor', 'stripe_payment_intent_id'])
    .where('stripe_invoice_id', '=', stripeInvoiceId)
    .executeTakeFirstOrThrow()
const refundsOf = (subscriptionInvoiceId: string) =>
  db()
    .selectFrom('subscription_invoice_refunds')
    .select(['stripe_refund_id', 'amount_minor', 'tax_minor', 'currency'])
    .where('subscription_invoice_id', '=', subscriptionInvoiceId)
    .orderBy('created_at')
    .execute()
const creditNotesOf = (userId: string) =>
  db()
    .selectFrom('credit_notes as cn')
    .innerJoin('invoices as i', 'i.id', 'cn.invoice_id')
    .select(['cn.id', 'cn.number', 'cn.total_minor', 'cn.refund_id', 'i.stripe_invoice_id'])
    .where('cn.user_id', '=', userId)
    .orderBy('cn.number')
    .execute()

/** Delivers a signed event as Stripe does (again, for a redelivery); the webhook must answer 200. */
async function post<T extends { payload: string; header: string }>(signed: T): Promise<T> {
  const response = await fetch(fake.webhookUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
    body: signed.payload,
  })
  expect(response.status).toBe(200)
  return signed
}

/** Premium's revenue of the business clock's month (the month a refund recorded now counts in). */
function revenueOfThisMonth() {
  const now = clock.now()
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  return premiumRevenueOfMonth(db(), start, end)
}
const refundedThisMonth = async () =>
  (await revenueOfThisMonth()).find((row) => row.currency === 'USD')?.refundedMinor ?? 0

describe('a refund of a Stripe renewal', () => {
  it('is recorded once with its tax part, gets a credit note the member can open, and leaves the Premium pool', async () => {
    const { user, caller, orderId, renewal, paymentIntent } = await renewedMember()
    // invoice.paid kept the payment that paid the renewal (Stripe's invoice payment, read before the event applied).
    const invoice = await recorded(renewal.id)
    expect(invoice).toMatchObject({ amount_minor: renewal.amount_paid, stripe_payment_intent_id: paymentIntent })
    expect(invoice.tax_minor).toBeGreaterThan(0)
    const weights = [invoice.amount_minor - invoice.tax_minor, invoice.tax_minor]
    const refundedBefore = await refundedThisMonth()

    // A partial refund in the Stripe dashboard.
    const first = fake.dashboardRefund(paymentIntent, 500)
    const event = fake.signedEvent('charge.refunded', fake.chargeOf(paymentIntent))
    await post(event)
    const firstTax = allocate(500, weights)[1]!
    expect(await refundsOf(invoice.id)).toEqual([
      { stripe_refund_id: first.id, amount_minor: 500, tax_minor: firstTax, currency: 'USD' },
    ])
    const notes = await creditNotesOf(user.id)
    expect(notes).toEqual([
      {
        id: expect.any(String),
        number: expect.any(String),
        total_minor: 500,
        refund_id: null,
        stripe_invoice_id: renewal.id,
      },
    ])
    // The member finds it under the plan's order, beside the renewal's invoice, and can open it.
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({
      id: orderId,
      creditNotes: [{ id: notes[0]!.id, number: notes[0]!.number, totalMinor: 500 }],
    })
    // The plan's story says what came back of that payment.
    expect(order!.subscription!.payments).toEqual([
      {
        amountMinor: invoice.amount_minor,
        currency: 'USD',
        paidAt: expect.any(String),
        refundedMinor: 500,
        disputedMinor: 0,
      },
    ])
    const renewalInvoice = await db()
      .selectFrom('invoices')
      .select('number')
      .where('stripe_invoice_id', '=', renewal.id)
      .executeTakeFirstOrThrow()
    expect(await caller.purchases.document({ kind: 'credit_note', id: notes[0]!.id })).toMatchObject({
      kind: 'credit_note',
      number: notes[0]!.number,
      invoiceNumber: renewalInvoice.number,
      currency: 'USD',
      totalMinor: 500,
      lines: [{ title: 'Refund: Basic (monthly)', quantity: 1, unitMinor: 500, amountMinor: 500 }],
    })
    // Premium's revenue of the month gives back what the refund returned, less its tax.
    expect(await refundedThisMonth()).toBe(refundedBefore + 500 - firstTax)

    // Stripe redelivers the event: nothing more.
    await post(event)
    expect(await refundsOf(invoice.id)).toHaveLength(1)
    expect(await creditNotesOf(user.id)).toHaveLength(1)

    // The rest is refunded: the next event lists both refunds; only the new one is recorded, and the two together
    // give back exactly the invoice's tax.
    const rest = fake.dashboardRefund(paymentIntent, invoice.amount_minor - 500)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(await refundsOf(invoice.id)).toEqual([
      { stripe_refund_id: first.id, amount_minor: 500, tax_minor: firstTax, currency: 'USD' },
      {
        stripe_refund_id: rest.id,
        amount_minor: invoice.amount_minor - 500,
        tax_minor: invoice.tax_minor - firstTax,
        currency: 'USD',
      },
    ])
    expect((await creditNotesOf(user.id)).map((note) => note.total_minor)).toEqual([500, invoice.amount_minor - 500])
    expect(await refundedThisMonth()).toBe(refundedBefore + invoice.amount_minor - invoice.tax_minor)
    // Once more: nothing more.
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(await refundsOf(invoice.id)).toHaveLength(2)
    expect(await creditNotesOf(user.id)).toHaveLength(2)
  })

  it('a renewal recorded without its payment is found through Stripe’s invoice payments, and keeps it', async () => {
    const { user, renewal, paymentIntent } = await renewedMember()
    // As a renewal recorded before its payment was kept (or while Stripe could not say which it was).
    await db()
      .updateTable('subscription_invoices')
      .set({ stripe_payment_intent_id: null })
      .where('stripe_invoice_id', '=', renewal.id)
      .execute()
    const refund = fake.dashboardRefund(paymentIntent, 300)
    const before = fake.calls.length
    await post(fake.signedEvent('charge.refunded', fake.chargeOf(paymentIntent)))
    expect(fake.calls.slice(before)).toEqual(['GET /v1/invoice_payments'])
    const invoice = await recorded(renewal.id)
    expect(invoice.stripe_payment_intent_id).toBe(paymentIntent)
    expect(await refundsOf(invoice.id)).toEqual([
      {
        stripe_refund_id: refund.id,
        amount_minor: 300,
        tax_minor: allocate(300, [invoice.amount_minor - invoice.tax_minor, invoice.tax_minor])[1],
        currency: 'USD',
      },
    ])
    expect((await creditNotesOf(user.id)).map((note) => note.total_minor)).toEqual([300])
    // Kept: the next refund of it asks Stripe nothing.
    fake.dashboardRefund(paymentIntent, 200)
    const next = fake.calls.length
    await post(fake.signedEvent('charge.refunded', fake.chargeOf(paymentIntent)))
    expect(fake.calls.slice(next)).toEqual([])
    expect((await creditNotesOf(user.id)).map((note) => note.total_minor)).toEqual([300, 200])
  })

  it('a payment that is neither an order’s nor a renewal’s is acknowledged as not ours', async () => {
    const paymentIntent = `pi_test_elsewhere_${Date.now()}`
    fake.captured.set(paymentIntent, { amount: 2500, currency: 'usd' })
    const refund = fake.dashboardRefund(paymentIntent, 100)
    const { event } = await post(fake.signedEvent('charge.refunded', fake.chargeOf(paymentIntent)))
    const outcome = await db()
      .selectFrom('processed_stripe_events')
      .select(['outcome', 'reason'])
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow()
    expect(outcome).toEqual({ outcome: 'ignored', reason: 'not_ours' })
    const recordedRefund = db()
      .selectFrom('subscription_invoice_refunds')
      .select('id')
      .where('stripe_refund_id', '=', refund.id)
      .executeTakeFirst()
    expect(await recordedRefund).toBeUndefined()
  })
})

const mailsTo = (to: string, kind: string) =>
  db()
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', to)
    .where('kind', '=', kind)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
const subscriptionOf = (orderId: string) =>
  db()
    .selectFrom('subscriptions')
    .select(['status', 'end_reason', 'stripe_subscription_id'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow()
const reference = async (orderId: string) =>
  (await db().selectFrom('orders').select('reference').where('id', '=', orderId).executeTakeFirstOrThrow()).reference

describe('what a refund of a Stripe renewal does for the member (decision 0089)', () => {
  it('a partial refund sends the refund mail only; the rest of the current period ends the plan as a refunded plan order', async () => {
    const { user, orderId, renewal, paymentIntent, stripeSubscription } = await renewedMember()
    const invoice = await recorded(renewal.id)
    const ref = await reference(orderId)
    const { period_start: start, period_end: end } = await db()
      .selectFrom('subscription_invoices')
      .select(['period_start', 'period_end'])
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow()
    const period = `${start!.toISOString().slice(0, 10)} to ${end!.toISOString().slice(0, 10)}`
    // A course completed through Premium in this period (Stripe's test clock is ahead of the business clock), and one
    // in the free trial before it.
    const completedBefore = new Date(start!.getTime() + 60_000)
    const completedInTrial = new Date(start!.getTime() - 60_000)
    expect(await premiumTakenBackAt(db(), user.id, completedBefore)).toBe(false)

    fake.dashboardRefund(paymentIntent, 500)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    const [note] = await creditNotesOf(user.id)
    expect(await mailsTo(user.email, 'order_refunded')).toEqual([
      {
        subject: `Refund of $5.00 for order ${ref}`,
        text_body: expect.stringContaining(
          `We have refunded $5.00 for order ${ref}.\n- Basic (monthly), ${period}\n\nYour credit note ${note!.number} is in My Account → Orders.`,
        ),
      },
    ])
    // A partial refund leaves the plan and Premium as they are.
    expect(await isPremium(db(), user)).toBe(true)
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'active', end_reason: null })

    // The rest: everything the current period's renewal took is given back, an hour after that completion (the
    // business clock catches up with Stripe's test clock).
    await clock.advanceClock((completedBefore.getTime() - clock.nowMs()) / 1000 + 3600)
    const before = fake.calls.length
    fake.dashboardRefund(paymentIntent, invoice.amount_minor - 500)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(fake.calls.slice(before)).toContain(`DELETE /v1/subscriptions/${stripeSubscription}`)
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    expect((await mailsTo(user.email, 'order_refunded')).map((mail) => mail.subject)).toEqual([
      `Refund of $5.00 for order ${ref}`,
      `Refund of ${formatMoney(invoice.amount_minor - 500, 'USD')} for order ${ref}`,
    ])
    // As a refunded plan order: the plan ended for a refund, Premium is gone, and a certificate earned through it is
    // taken back (decision 0090).
    expect(await isPremium(db(), user)).toBe(false)
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'cancelled', end_reason: 'refund' })
    expect(await premiumTakenBackAt(db(), user.id, completedBefore)).toBe(true)
    // The free trial took no money, so none came back: what was completed in it stands.
    expect(await premiumTakenBackAt(db(), user.id, completedInTrial)).toBe(false)
    const refunded = `Refunded on ${formatDate(clock.now())}`
    expect(await membershipPage(db(), user.id)).toMatchObject({ status: 'cancelled', statusText: refunded })
    const staffRow = (await ordersForStaff(db(), { limit: 500 })).find((order) => order.id === orderId)
    expect(staffRow?.plan).toBe(`Basic plan — ${refunded}`)
    // A redelivery changes nothing, and sends nothing.
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(await mailsTo(user.email, 'order_refunded')).toHaveLength(2)
  })

  it('a full refund of an earlier period (the member had it; a later renewal paid the current one) sends the mail only', async () => {
    const { user, orderId, renewal, paymentIntent } = await renewedMember()
    expect(new Set(await fake.advance(31 * DAY))).toEqual(new Set([200])) // the next renewal, paid
    const invoice = await recorded(renewal.id)
    const { period_start: start } = await db()
      .selectFrom('subscription_invoices')
      .select('period_start')
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow()
    const completedInRefundedMonth = new Date(start!.getTime() + 60_000)
    const { period_start: nextStart } = await db()
      .selectFrom('subscription_invoices')
      .select('period_start')
      .where('user_id', '=', user.id)
      .where('billing_reason', '=', 'subscription_cycle')
      .orderBy('period_start', 'desc')
      .executeTakeFirstOrThrow()
    const completedInPaidMonth = new Date(nextStart!.getTime() + 60_000)
    fake.dashboardRefund(paymentIntent, invoice.amount_minor)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    expect(await refundsOf(invoice.id)).toHaveLength(1)
    expect(await mailsTo(user.email, 'order_refunded')).toHaveLength(1)
    expect(await isPremium(db(), user)).toBe(true)
    expect(await subscriptionOf(orderId)).toMatchObject({ status: 'active', end_reason: null })
    // Premium certificates go by the month they were earned in (decision 0090): the refunded month's is taken back
    // (it still shows while Premium opens the course), the paid month's stands.
    expect(await premiumTakenBackAt(db(), user.id, completedInRefundedMonth)).toBe(true)
    expect(await premiumTakenBackAt(db(), user.id, completedInPaidMonth)).toBe(false)
  })
})
