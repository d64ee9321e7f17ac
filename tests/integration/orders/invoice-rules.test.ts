// The rules of invoices, credit notes and their numbers, pinned to exact values (issue 19, mutation testing of
// orders-documents): numbering.ts (KIND-YEAR-six digits, one gapless series per kind and UTC year), invoices.ts (an
// order's invoice once, only when money was taken, with the seller, the buyer, every line, the tax lines and the
// totals; a credit note per refund naming the invoice; a Stripe invoice in the same series), documents.ts (the
// printable view, for the buyer it names and staff only) and subscription-invoices.ts (Stripe's paid subscription
// invoices recorded once, numbered when money was taken after the first charge, listed under the plan's order).
// Documents dated in a far year (2031–2042) are each test's own series, so their numbers are exact.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSession } from '../../../src-server/auth/session.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { defaultAppConfig } from '../../../src-server/kernel/config.ts'
import { issueCreditNote, issueOrderInvoice, recordSubscriptionInvoice } from '../../../src-server/orders/invoices.ts'
import { formatDocumentNumber, nextDocumentNumber } from '../../../src-server/orders/numbering.ts'
import { premiumRevenueOfMonth } from '../../../src-server/orders/premium-revenue.ts'
import { configureSeller } from '../../../src-server/orders/seller.ts'
import {
  listPaidInvoicesByOrder,
  recordPaidSubscriptionInvoice,
  recordServiceRenewalInvoice,
} from '../../../src-server/orders/subscription-invoices.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createCaller } from '../../../src-server/routers/_app.ts'
import { createContextInner } from '../../../src-server/trpc/context.ts'
import type { Role } from '../../../src-shared/roles.ts'
import { createUser, type TestUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, payCartByCard, sessionIdOf, startPaymentsServer } from '../../support/payments-server.ts'
import { buyerWhoHadAPlan, pricedCourses, servicePackage, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
let admin: TestUser
const db = () => shop.database.db

/** What configureSeller below makes every document name as the seller (no VAT number given: null). */
const SELLER = { name: 'Rules Seller Ltd', address: '3 Rule Street, York', companyNumber: '07654321', vatNumber: null }
const NOT_FOUND = { code: 'NOT_FOUND', message: 'Document not found' }

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  admin = await createUser(db(), { role: 'admin' })
  configureSeller({ name: SELLER.name, address: SELLER.address, companyNumber: SELLER.companyNumber })
})
afterAll(() => shop.close())

const callerOf = (user: TestUser) => shopCaller(db(), user, payments)
const thisYear = () => new Date().getUTCFullYear()
const seconds = (iso: string) => Date.parse(iso) / 1000
const iso = (at: Date | null) => at?.toISOString() ?? null

/** The last number a series gave (0 before its first document). */
async function lastNumber(kind: 'INV' | 'CN', year: number) {
  const row = await db()
    .selectFrom('document_counters')
    .select('last_number')
    .where('kind', '=', kind)
    .where('year', '=', year)
    .executeTakeFirst()
  return row?.last_number ?? 0
}
const numbered = (kind: 'INV' | 'CN', year: number, sequence: number) =>
  `${kind}-${year}-${String(sequence).padStart(6, '0')}`

const linesOf = (orderId: string) =>
  db()
    .selectFrom('order_items')
    .select(['id', 'title', 'detail', 'unit_price_minor', 'refunded_at'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
const orderRow = (orderId: string) =>
  db()
    .selectFrom('orders')
    .select(['reference', 'status', 'paid_at', 'captured_minor', 'stripe_payment_intent_id'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
const invoicesOf = (userId: string) =>
  db()
    .selectFrom('invoices')
    .select(['id', 'number', 'order_id', 'stripe_invoice_id', 'total_minor'])
    .where('user_id', '=', userId)
    .orderBy('number')
    .execute()
const invoiceOfStripe = (stripeInvoiceId: string) =>
  db()
    .selectFrom('invoices')
    .select(['id', 'number'])
    .where('stripe_invoice_id', '=', stripeInvoiceId)
    .executeTakeFirstOrThrow()

/** The order's document lines as issueOrderInvoice writes them: one per order line, quantity 1, in id order. */
const documentLines = (lines: Awaited<ReturnType<typeof linesOf>>) =>
  lines.map((line) => ({
    title: line.title,
    detail: line.detail,
    quantity: 1,
    unitMinor: line.unit_price_minor,
    amountMinor: line.unit_price_minor,
    orderItemId: line.id,
  }))

/** `count` priced USD courses (from `offset`) checked out by bank transfer with `billing`; staff mark it paid. */
async function paidByBank(user: TestUser, offset: number, count = 1, billing?: Record<string, string>) {
  const caller = await callerOf(user)
  for (const course of await pricedCourses(db(), { count, offset })) {
    await caller.cart.add({ kind: 'course', courseId: course.id })
  }
  const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer', billing })
  await (await callerOf(admin)).admin.orders.markPaid({ id: started.orderId })
  return { caller, orderId: started.orderId, reference: started.reference }
}

/** A first-time member of the monthly Basic plan by card: Stripe reports the trial's checkout as 0 taken. */
async function trialMember() {
  const user = await createUser(db())
  const caller = await callerOf(user)
  await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
  const started = await caller.payments.start({ currency: 'USD', method: 'card' })
  if (started.method !== 'card') throw new Error('expected a card checkout')
  const session = fake.completeSession(sessionIdOf(started.url), 'no_payment_required')
  session.amount_total = 0
  expect(await fake.deliver('checkout.session.completed', session)).toBe(200)
  expect(new Set(await fake.flush())).toEqual(new Set([200])) // the subscription's start and its 0 invoice
  const subscription = await db()
    .selectFrom('subscriptions')
    .select('id')
    .where('order_id', '=', started.orderId)
    .executeTakeFirstOrThrow()
  return { user, caller, orderId: started.orderId, stripeId: session.subscription!, subscriptionId: subscription.id }
}

/** invoice.paid of a subscription's invoice, with the fields the shop reads. */
function paidInvoice(
  id: string,
  subscription: string,
  fields: {
    amount: number
    currency?: string
    reason?: string
    period?: [string, string]
    end?: string
    paidAt: string
    /** Stripe Tax's part of the amount, as API 2025-03-31.basil names it (total_taxes). */
    tax?: number
  },
) {
  return {
    id,
    subscription,
    amount_paid: fields.amount,
    ...(fields.tax ? { total_taxes: [{ amount: fields.tax, tax_behavior: 'exclusive', taxable_amount: 0 }] } : {}),
    currency: fields.currency ?? 'usd',
    billing_reason: fields.reason ?? 'subscription_cycle',
    ...(fields.end ? { period_end: seconds(fields.end) } : {}),
    ...(fields.period
      ? { lines: { data: [{ period: { start: seconds(fields.period[0]), end: seconds(fields.period[1]) } }] } }
      : {}),
    status_transitions: { paid_at: seconds(fields.paidAt) },
  }
}

describe('document numbers', () => {
  it('are KIND-YEAR-six digits, one gapless series per kind and per UTC year', async () => {
    const issued = await db()
      .transaction()
      .execute(async (trx) => {
        const numbers: string[] = []
        const issues: ['INV' | 'CN', string][] = [
          ['INV', '2031-01-01T00:00:00Z'],
          ['INV', '2031-12-31T23:59:59Z'],
          ['CN', '2031-06-01T12:00:00Z'],
          ['INV', '2032-01-01T00:00:00Z'],
          ['CN', '2031-06-02T12:00:00Z'],
          ['INV', '2032-01-01T00:30:00+01:00'], // 23:30 UTC on 31 December 2031
        ]
        for (const [kind, at] of issues) numbers.push(await nextDocumentNumber(trx, kind, new Date(at)))
        return numbers
      })
    expect(issued).toEqual([
      'INV-2031-000001',
      'INV-2031-000002',
      'CN-2031-000001',
      'INV-2032-000001',
      'CN-2031-000002',
      'INV-2031-000003',
    ])
    const counters = await db()
      .selectFrom('document_counters')
      .select(['kind', 'year', 'last_number'])
      .where('year', 'in', [2031, 2032])
      .orderBy('kind')
      .orderBy('year')
      .execute()
    expect(counters).toEqual([
      { kind: 'CN', year: 2031, last_number: 2 },
      { kind: 'INV', year: 2031, last_number: 3 },
      { kind: 'INV', year: 2032, last_number: 1 },
    ])
    expect(formatDocumentNumber('CN', 2030, 42)).toBe('CN-2030-000042')
    expect(formatDocumentNumber('INV', 2030, 1_234_567)).toBe('INV-2030-1234567')
  })
})

describe('the invoice of a paid order', () => {
  it('snapshots the seller, the checkout’s billing details, every line and the totals; the next order is numbered next', async () => {
    const user = await createUser(db(), { firstName: 'Ada', lastName: 'Lovelace' })
    const billing = {
      name: 'Augusta Ada King',
      email: 'accounts@engines.example',
      company: 'Analytical Engines plc',
      address: '12 St James’s Square, London',
      vatNumber: 'GB123456789',
    }
    const before = await lastNumber('INV', thisYear())
    const { caller, orderId, reference } = await paidByBank(user, 0, 2, billing)
    const order = await orderRow(orderId)
    const lines = await linesOf(orderId)
    expect(lines).toHaveLength(2)
    const subtotal = lines[0]!.unit_price_minor + lines[1]!.unit_price_minor
    const [history] = await caller.purchases.orders()
    expect(history!.invoice).toEqual({ id: expect.any(String), number: numbered('INV', thisYear(), before + 1) })
    expect(await caller.purchases.document({ kind: 'invoice', id: history!.invoice!.id })).toEqual({
      kind: 'invoice',
      id: history!.invoice!.id,
      number: numbered('INV', thisYear(), before + 1),
      issuedAt: iso(order.paid_at),
      currency: 'USD',
      seller: SELLER,
      buyer: billing,
      lines: documentLines(lines),
      taxLines: [],
      subtotalMinor: subtotal,
      taxMinor: 0,
      totalMinor: subtotal,
      orderReference: reference,
      invoiceNumber: null,
    })

    // Without billing details: the account's name and e-mail; the next number of the year.
    const second = await paidByBank(user, 2)
    const [latest] = await caller.purchases.orders()
    expect(latest!.id).toBe(second.orderId)
    expect(await caller.purchases.document({ kind: 'invoice', id: latest!.invoice!.id })).toMatchObject({
      number: numbered('INV', thisYear(), before + 2),
      buyer: { name: 'Ada Lovelace', email: user.email, company: null, address: null, vatNumber: null },
      lines: documentLines(await linesOf(second.orderId)),
      orderReference: second.reference,
    })
  })

  it('names the account’s first and last name, either alone, or else its e-mail', async () => {
    const cases = [
      { firstName: 'Grace', lastName: '', name: 'Grace' },
      { firstName: '', lastName: 'Hopper', name: 'Hopper' },
      { firstName: '', lastName: '', name: null },
    ]
    for (const [index, names] of cases.entries()) {
      const user = await createUser(db(), { firstName: names.firstName, lastName: names.lastName })
      const { caller } = await paidByBank(user, 3 + index)
      const [order] = await caller.purchases.orders()
      const invoice = await caller.purchases.document({ kind: 'invoice', id: order!.invoice!.id })
      expect(invoice.buyer).toEqual({
        name: names.name ?? user.email,
        email: user.email,
        company: null,
        address: null,
        vatNumber: null,
      })
    }
  })

  it('is issued once: issuing it again gives back the first number and uses none', async () => {
    const user = await createUser(db())
    const { orderId } = await paidByBank(user, 6)
    const [invoice] = await invoicesOf(user.id)
    expect(await issueOrderInvoice(db(), orderId, new Date('2035-05-05T00:00:00Z'))).toBe(invoice!.number)
    expect(await invoicesOf(user.id)).toEqual([invoice])
    expect(await lastNumber('INV', 2035)).toBe(0)
  })

  it('is not issued when nothing was taken (a free trial), and takes no number', async () => {
    const before = await lastNumber('INV', thisYear())
    const { user, caller, orderId } = await trialMember()
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', captured_minor: 0 })
    expect(await invoicesOf(user.id)).toEqual([])
    expect(await lastNumber('INV', thisYear())).toBe(before)
    const [order] = await caller.purchases.orders()
    expect(order!.invoice).toBeNull()
    expect(await issueOrderInvoice(db(), orderId, new Date())).toBeNull()
  })

  it('lists Stripe Tax’s lines when they add up to the tax, else one “Tax” line; the total is lines plus tax', async () => {
    const recorded = [
      { name: 'VAT — United Kingdom 20%', amountMinor: 200 },
      { name: 'Digital services levy 5%', amountMinor: 50 },
    ]
    const cases = [
      { taxLines: undefined, expected: [{ name: 'Tax', amountMinor: 250 }] },
      { taxLines: recorded, expected: recorded },
      { taxLines: recorded.slice(0, 1), expected: [{ name: 'Tax', amountMinor: 250 }] },
    ]
    for (const [index, { taxLines, expected }] of cases.entries()) {
      const user = await createUser(db())
      const caller = await callerOf(user)
      const [course] = await pricedCourses(db(), { offset: 7 + index })
      await caller.cart.add({ kind: 'course', courseId: course!.id })
      const started = await caller.payments.start({ currency: 'USD', method: 'card' })
      const captured = course!.price_minor + 250
      const paid = await markPaid(db(), started.orderId, {
        source: 'stripe',
        capturedMinor: captured,
        taxMinor: 250,
        taxLines,
      })
      expect(paid).toBe('fulfilled')
      const [order] = await caller.purchases.orders()
      expect(await caller.purchases.document({ kind: 'invoice', id: order!.invoice!.id })).toMatchObject({
        taxLines: expected,
        subtotalMinor: course!.price_minor,
        taxMinor: 250,
        totalMinor: captured,
      })
    }
  })
})

/** A bank-transfer order of two courses with a billing company, paid, then its first line refunded by staff. */
async function refundedOrder(offset: number) {
  const user = await createUser(db(), { firstName: 'Ada', lastName: 'Lovelace' })
  const { caller, orderId, reference } = await paidByBank(user, offset, 2, { company: 'Engines Ltd' })
  const [first, second] = await linesOf(orderId)
  const refund = await (await callerOf(admin)).admin.orders.refund({
    orderId,
    lineIds: [first!.id],
    reference: 'BANK-RET-1',
  })
  const [order] = await caller.purchases.orders()
  return { user, caller, orderId, reference, first: first!, second: second!, refund, order: order! }
}

describe('credit notes', () => {
  it('one per refund, partial then the rest, numbered in their own series and naming the invoice', async () => {
    const year = thisYear()
    const [creditBefore, invoiceBefore] = [await lastNumber('CN', year), await lastNumber('INV', year)]
    const { user, caller, orderId, reference, first, second, refund, order } = await refundedOrder(10)
    expect(refund).toMatchObject({
      amountMinor: first.unit_price_minor,
      status: 'partially_refunded',
      creditNoteNumber: numbered('CN', year, creditBefore + 1),
    })
    const invoice = await caller.purchases.document({ kind: 'invoice', id: order.invoice!.id })
    const buyer = { name: 'Ada Lovelace', email: user.email, company: 'Engines Ltd', address: null, vatNumber: null }
    expect(invoice.buyer).toEqual(buyer)
    const noteOf = async (line: typeof first, number: string, id: string) => ({
      kind: 'credit_note',
      id,
      number,
      issuedAt: iso((await linesOf(orderId)).find((row) => row.id === line.id)!.refunded_at),
      currency: 'USD',
      seller: SELLER,
      buyer,
      lines: documentLines([line]),
      taxLines: [],
      subtotalMinor: line.unit_price_minor,
      taxMinor: 0,
      totalMinor: line.unit_price_minor,
      orderReference: reference,
      invoiceNumber: invoice.number,
    })
    const firstNote = order.creditNotes[0]!
    expect(order.creditNotes).toEqual([
      { id: firstNote.id, number: numbered('CN', year, creditBefore + 1), totalMinor: first.unit_price_minor },
    ])
    expect(await caller.purchases.document({ kind: 'credit_note', id: firstNote.id })).toEqual(
      await noteOf(first, firstNote.number, firstNote.id),
    )

    // The rest (no lines named: every open line), by bank again.
    const rest = await (await callerOf(admin)).admin.orders.refund({ orderId, reference: 'BANK-RET-2' })
    expect(rest).toMatchObject({ amountMinor: second.unit_price_minor, status: 'refunded' })
    const [after] = await caller.purchases.orders()
    const secondNote = after!.creditNotes[1]!
    expect(after!.creditNotes).toEqual([
      firstNote,
      { id: secondNote.id, number: numbered('CN', year, creditBefore + 2), totalMinor: second.unit_price_minor },
    ])
    expect(await caller.purchases.document({ kind: 'credit_note', id: secondNote.id })).toEqual(
      await noteOf(second, secondNote.number, secondNote.id),
    )
    // Each note belongs to its refund and the order's invoice; no invoice number was used by them.
    const rows = await db()
      .selectFrom('credit_notes as cn')
      .innerJoin('refunds as r', 'r.id', 'cn.refund_id')
      .select(['cn.number', 'cn.invoice_id', 'cn.user_id', 'r.reference'])
      .where('r.order_id', '=', orderId)
      .orderBy('cn.number')
      .execute()
    expect(rows).toEqual([
      { number: firstNote.number, invoice_id: invoice.id, user_id: user.id, reference: 'BANK-RET-1' },
      { number: secondNote.number, invoice_id: invoice.id, user_id: user.id, reference: 'BANK-RET-2' },
    ])
    expect(await lastNumber('INV', year)).toBe(invoiceBefore + 1)
  })

  it('a partial refund made in Stripe’s dashboard: one “Refund” line for the amount given back', async () => {
    const user = await createUser(db())
    const caller = await callerOf(user)
    const [course] = await pricedCourses(db(), { offset: 12 })
    await caller.cart.add({ kind: 'course', courseId: course!.id })
    const orderId = await payCartByCard(fake, caller)
    const paymentIntent = (await orderRow(orderId)).stripe_payment_intent_id!
    fake.dashboardRefund(paymentIntent, 300)
    expect(await fake.deliver('charge.refunded', fake.chargeOf(paymentIntent))).toBe(200)
    const [order] = await caller.purchases.orders()
    expect(order!.creditNotes).toEqual([{ id: expect.any(String), number: expect.any(String), totalMinor: 300 }])
    expect(await caller.purchases.document({ kind: 'credit_note', id: order!.creditNotes[0]!.id })).toMatchObject({
      lines: [{ title: 'Refund', quantity: 1, unitMinor: 300, amountMinor: 300 }],
      subtotalMinor: 300,
      totalMinor: 300,
      invoiceNumber: order!.invoice!.number,
    })
  })

  it('is not issued for an order that was never invoiced, and takes no number', async () => {
    const user = await createUser(db())
    const caller = await callerOf(user)
    const [course] = await pricedCourses(db(), { offset: 13 })
    await caller.cart.add({ kind: 'course', courseId: course!.id })
    const pending = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    const before = await lastNumber('CN', thisYear())
    const note = await issueCreditNote(db(), {
      id: randomUUID(),
      orderId: pending.orderId,
      amountMinor: 100,
      lines: [],
      untitledAs: 'Refund',
      completesOrder: false,
      capturedMinor: 0,
      at: new Date(),
    })
    expect(note).toBeNull()
    expect(await lastNumber('CN', thisYear())).toBe(before)
  })
})

describe('who may read a document', () => {
  it('the buyer it names and every staff role; anyone else, an unknown id or the other kind: not found', async () => {
    const { caller, order } = await refundedOrder(14)
    const invoice = { kind: 'invoice' as const, id: order.invoice!.id }
    const note = { kind: 'credit_note' as const, id: order.creditNotes[0]!.id }
    expect(await caller.purchases.document(invoice)).toMatchObject({ kind: 'invoice', number: order.invoice!.number })
    expect(await caller.purchases.document(note)).toMatchObject({
      kind: 'credit_note',
      number: order.creditNotes[0]!.number,
    })
    for (const role of ['viewer', 'editor', 'admin', 'super_admin'] as Role[]) {
      const staff = await callerOf(await createUser(db(), { role }))
      expect(await staff.purchases.document(invoice)).toMatchObject({ id: invoice.id, number: order.invoice!.number })
      expect(await staff.purchases.document(note)).toMatchObject({ id: note.id, number: order.creditNotes[0]!.number })
    }
    // With STAFF_2FA=required an admin or owner without the second factor reads no one else's document.
    for (const role of ['admin', 'super_admin'] as Role[]) {
      const user = await createUser(db(), { role })
      const { session } = await createSession(db(), user.id)
      const config = { ...defaultAppConfig, payments, staffTwoFactor: 'required' as const }
      const unfactored = createCaller(createContextInner({ db: db(), user, session, config }))
      await expect(unfactored.purchases.document(invoice)).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    }
    const stranger = await callerOf(await createUser(db()))
    await expect(stranger.purchases.document(invoice)).rejects.toMatchObject(NOT_FOUND)
    await expect(stranger.purchases.document(note)).rejects.toMatchObject(NOT_FOUND)
    for (const kind of ['invoice', 'credit_note'] as const) {
      await expect(caller.purchases.document({ kind, id: randomUUID() })).rejects.toMatchObject(NOT_FOUND)
    }
    await expect(caller.purchases.document({ kind: 'credit_note', id: invoice.id })).rejects.toMatchObject(NOT_FOUND)
    await expect(caller.purchases.document({ kind: 'invoice', id: note.id })).rejects.toMatchObject(NOT_FOUND)
  })
})

describe('a Stripe invoice recorded directly (recordSubscriptionInvoice)', () => {
  it('joins the orders’ series: currency upper-cased, each line once, the tax as one line, the account’s name', async () => {
    const user = await createUser(db(), { firstName: 'Grace', lastName: 'Hopper' })
    const paid = {
      userId: user.id,
      stripeInvoiceId: `in_direct_${user.id}`,
      currency: 'gbp',
      lines: [
        { title: 'Pro (annual)', detail: '2034-01-01 to 2035-01-01', amountMinor: 19_999 },
        { title: 'Proration', amountMinor: 500 },
      ],
      taxMinor: 4100,
      paidAt: new Date('2034-02-03T04:05:06Z'),
    }
    expect(await recordSubscriptionInvoice(db(), paid)).toBe('INV-2034-000001')
    expect(await recordSubscriptionInvoice(db(), paid)).toBe('INV-2034-000001')
    expect(await lastNumber('INV', 2034)).toBe(1)
    const invoice = await invoiceOfStripe(paid.stripeInvoiceId)
    expect(await (await callerOf(user)).purchases.document({ kind: 'invoice', id: invoice.id })).toEqual({
      kind: 'invoice',
      id: invoice.id,
      number: 'INV-2034-000001',
      issuedAt: '2034-02-03T04:05:06.000Z',
      currency: 'GBP',
      seller: SELLER,
      buyer: { name: 'Grace Hopper', email: user.email },
      lines: [
        {
          title: 'Pro (annual)',
          detail: '2034-01-01 to 2035-01-01',
          quantity: 1,
          unitMinor: 19_999,
          amountMinor: 19_999,
        },
        { title: 'Proration', detail: '', quantity: 1, unitMinor: 500, amountMinor: 500 },
      ],
      taxLines: [{ name: 'Tax', amountMinor: 4100 }],
      subtotalMinor: 20_499,
      taxMinor: 4100,
      totalMinor: 24_599,
      orderReference: null,
      invoiceNumber: null,
    })
    expect((await invoicesOf(user.id)).map((row) => row.order_id)).toEqual([null])
  })

  it('without tax: no tax line; the buyer is named by either name alone, or else the e-mail', async () => {
    const cases = [
      { firstName: 'Grace', lastName: '', name: 'Grace' },
      { firstName: '', lastName: 'Hopper', name: 'Hopper' },
      { firstName: '', lastName: '', name: null },
    ]
    for (const [index, names] of cases.entries()) {
      const user = await createUser(db(), { firstName: names.firstName, lastName: names.lastName })
      const number = await recordSubscriptionInvoice(db(), {
        userId: user.id,
        stripeInvoiceId: `in_untaxed_${user.id}`,
        currency: 'usd',
        lines: [{ title: 'Basic (monthly)', amountMinor: 999 }],
        paidAt: new Date('2033-07-01T00:00:00Z'),
      })
      expect(number).toBe(`INV-2033-00000${index + 1}`)
      const invoice = await invoiceOfStripe(`in_untaxed_${user.id}`)
      expect(await (await callerOf(user)).purchases.document({ kind: 'invoice', id: invoice.id })).toMatchObject({
        buyer: { name: names.name ?? user.email, email: user.email },
        currency: 'USD',
        taxLines: [],
        subtotalMinor: 999,
        taxMinor: 0,
        totalMinor: 999,
      })
    }
  })

  it('refuses a user it does not know, before taking a number', async () => {
    const userId = randomUUID()
    await expect(
      recordSubscriptionInvoice(db(), {
        userId,
        stripeInvoiceId: 'in_nobody',
        currency: 'usd',
        lines: [{ title: 'Basic (monthly)', amountMinor: 999 }],
        paidAt: new Date('2041-01-01T00:00:00Z'),
      }),
    ).rejects.toThrow(new Error(`No user ${userId} for Stripe invoice in_nobody`))
    expect(await lastNumber('INV', 2041)).toBe(0)
  })
})

describe('paid subscription invoices from Stripe (invoice.paid)', () => {
  const recordedRows = (stripeInvoiceId: string) =>
    db()
      .selectFrom('subscription_invoices')
      .select([
        'subscription_id',
        'user_id',
        'amount_minor',
        'currency',
        'period_start',
        'period_end',
        'billing_reason',
        'paid_at',
      ])
      .where('stripe_invoice_id', '=', stripeInvoiceId)
      .execute()

  it('a paid renewal: recorded once with its facts, numbered as a tax invoice of the plan for its period', async () => {
    const { user, caller, orderId, stripeId, subscriptionId } = await trialMember()
    const id = `in_renewal_${user.id}`
    const event = paidInvoice(id, stripeId, {
      amount: 999,
      period: ['2036-03-01T00:00:00Z', '2036-04-01T00:00:00Z'],
      paidAt: '2036-03-01T06:00:00Z',
    })
    expect(await fake.deliver('invoice.paid', event)).toBe(200)
    const row = {
      subscription_id: subscriptionId,
      user_id: user.id,
      amount_minor: 999,
      currency: 'USD',
      period_start: new Date('2036-03-01T00:00:00Z'),
      period_end: new Date('2036-04-01T00:00:00Z'),
      billing_reason: 'subscription_cycle',
      paid_at: new Date('2036-03-01T06:00:00Z'),
    }
    expect(await recordedRows(id)).toEqual([row])
    const invoice = await invoiceOfStripe(id)
    expect(await caller.purchases.document({ kind: 'invoice', id: invoice.id })).toEqual({
      kind: 'invoice',
      id: invoice.id,
      number: 'INV-2036-000001',
      issuedAt: '2036-03-01T06:00:00.000Z',
      currency: 'USD',
      seller: SELLER,
      buyer: { name: 'Test User', email: user.email },
      lines: [
        { title: 'Basic (monthly)', detail: '2036-03-01 to 2036-04-01', quantity: 1, unitMinor: 999, amountMinor: 999 },
      ],
      taxLines: [],
      subtotalMinor: 999,
      taxMinor: 0,
      totalMinor: 999,
      orderReference: null,
      invoiceNumber: null,
    })

    // Stripe redelivers it: nothing more is recorded or numbered.
    expect(await fake.deliver('invoice.paid', event)).toBe(200)
    expect(await recordedRows(id)).toEqual([row])
    expect((await invoicesOf(user.id)).map((inv) => inv.number)).toEqual(['INV-2036-000001'])
    expect(await lastNumber('INV', 2036)).toBe(1)

    // The buyer finds it under the plan's order, with the payment (the trial's 0 is no payment).
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({
      id: orderId,
      invoice: null,
      renewalInvoices: [{ id: invoice.id, number: 'INV-2036-000001' }],
      subscription: { payments: [{ amountMinor: 999, currency: 'USD', paidAt: '2036-03-01T06:00:00.000Z' }] },
    })
  })

  it('a paid renewal with Stripe Tax: its line is the plan’s price and the tax its own line; the pool leaves the tax', async () => {
    const { user, caller, stripeId } = await trialMember()
    const id = `in_taxed_${user.id}`
    const event = paidInvoice(id, stripeId, {
      amount: 1199,
      tax: 200,
      period: ['2043-05-01T00:00:00Z', '2043-06-01T00:00:00Z'],
      paidAt: '2043-05-01T06:00:00Z',
    })
    expect(await fake.deliver('invoice.paid', event)).toBe(200)
    const invoice = await invoiceOfStripe(id)
    expect(await caller.purchases.document({ kind: 'invoice', id: invoice.id })).toMatchObject({
      number: 'INV-2043-000001',
      lines: [
        { title: 'Basic (monthly)', detail: '2043-05-01 to 2043-06-01', quantity: 1, unitMinor: 999, amountMinor: 999 },
      ],
      taxLines: [{ name: 'Tax', amountMinor: 200 }],
      subtotalMinor: 999,
      taxMinor: 200,
      totalMinor: 1199,
    })
    // Premium's revenue of the month is what the plan earned, not the tax collected for the state.
    expect(
      await premiumRevenueOfMonth(db(), new Date('2043-05-01T00:00:00Z'), new Date('2043-06-01T00:00:00Z')),
    ).toEqual([{ currency: 'USD', revenueMinor: 999, refundedMinor: 0 }])

    // Older API versions name it `tax`.
    const older = `in_taxed_older_${user.id}`
    const untaxed = paidInvoice(older, stripeId, {
      amount: 1199,
      period: ['2043-06-01T00:00:00Z', '2043-07-01T00:00:00Z'],
      paidAt: '2043-06-01T06:00:00Z',
    })
    expect(await fake.deliver('invoice.paid', { ...untaxed, tax: 200 })).toBe(200)
    expect(await caller.purchases.document({ kind: 'invoice', id: (await invoiceOfStripe(older)).id })).toMatchObject({
      subtotalMinor: 999,
      taxMinor: 200,
      totalMinor: 1199,
    })
  })

  it('no period start: no period named; a zero invoice is recorded, not numbered; the currency upper-cased', async () => {
    const { user, caller, stripeId } = await trialMember()
    const prorated = `in_prorated_${user.id}`
    const event = paidInvoice(prorated, stripeId, {
      amount: 1999,
      currency: 'eur',
      reason: 'subscription_update',
      end: '2037-05-01T00:00:00Z',
      paidAt: '2037-04-10T08:00:00Z',
    })
    expect(await fake.deliver('invoice.paid', event)).toBe(200)
    expect(await recordedRows(prorated)).toMatchObject([
      { amount_minor: 1999, currency: 'EUR', period_start: null, billing_reason: 'subscription_update' },
    ])
    const invoice = await invoiceOfStripe(prorated)
    expect(await caller.purchases.document({ kind: 'invoice', id: invoice.id })).toMatchObject({
      number: 'INV-2037-000001',
      currency: 'EUR',
      lines: [{ title: 'Basic (monthly)', detail: '', quantity: 1, unitMinor: 1999, amountMinor: 1999 }],
      totalMinor: 1999,
    })

    const free = `in_free_${user.id}`
    const zero = paidInvoice(free, stripeId, {
      amount: 0,
      period: ['2037-05-01T00:00:00Z', '2037-06-01T00:00:00Z'],
      paidAt: '2037-05-01T00:00:00Z',
    })
    expect(await fake.deliver('invoice.paid', zero)).toBe(200)
    expect(await recordedRows(free)).toMatchObject([{ amount_minor: 0, billing_reason: 'subscription_cycle' }])
    expect((await invoicesOf(user.id)).map((inv) => inv.stripe_invoice_id)).toEqual([prorated])
    expect(await lastNumber('INV', 2037)).toBe(1)
  })

  it('a plan paid at checkout: the order’s invoice covers the first charge, Stripe’s first invoice is not numbered again', async () => {
    const user = await buyerWhoHadAPlan(db()) // no second free trial: the first month is charged at checkout
    const caller = await callerOf(user)
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const orderId = await payCartByCard(fake, caller)
    expect(new Set(await fake.flush())).toEqual(new Set([200])) // subscription_create, 999 paid
    expect(await orderRow(orderId)).toMatchObject({ status: 'paid', captured_minor: 999 })
    const [first] = await db()
      .selectFrom('subscription_invoices')
      .select(['amount_minor', 'billing_reason'])
      .where('user_id', '=', user.id)
      .execute()
    expect(first).toEqual({ amount_minor: 999, billing_reason: 'subscription_create' })
    const invoices = await invoicesOf(user.id)
    expect(invoices).toEqual([
      {
        id: expect.any(String),
        number: expect.any(String),
        order_id: orderId,
        stripe_invoice_id: null,
        total_minor: 999,
      },
    ])
    const [order] = await caller.purchases.orders()
    expect(order).toMatchObject({
      invoice: { id: invoices[0]!.id, number: invoices[0]!.number },
      renewalInvoices: [],
      subscription: { payments: [{ amountMinor: 999, currency: 'USD' }] },
    })
  })

  it('recordPaidSubscriptionInvoice: true the first time; a repeat, even with other facts, changes nothing', async () => {
    const { user, subscriptionId } = await trialMember()
    const paid = {
      subscriptionId,
      userId: user.id,
      stripeInvoiceId: `in_repeat_${user.id}`,
      amountMinor: 0,
      currency: 'USD',
      periodStart: new Date('2042-01-01T00:00:00Z'),
      periodEnd: new Date('2042-02-01T00:00:00Z'),
      billingReason: 'subscription_cycle',
      paidAt: new Date('2042-01-01T00:00:00Z'),
    }
    expect(await recordPaidSubscriptionInvoice(db(), paid)).toBe(true)
    expect(await recordPaidSubscriptionInvoice(db(), { ...paid, amountMinor: 999, currency: 'GBP' })).toBe(false)
    expect(await recordedRows(paid.stripeInvoiceId)).toMatchObject([{ amount_minor: 0, currency: 'USD' }])
    expect(await invoicesOf(user.id)).toEqual([])
    expect(await lastNumber('INV', 2042)).toBe(0)
  })

  it('listPaidInvoicesByOrder: by the order that started each subscription, oldest first; none without an order', async () => {
    const user = await buyerWhoHadAPlan(db()) // a cancelled subscription of no order
    const caller = await callerOf(user)
    await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })
    const orderId = await payCartByCard(fake, caller)
    expect(new Set(await fake.flush())).toEqual(new Set([200]))
    const subscriptions = await db()
      .selectFrom('subscriptions')
      .select(['id', 'order_id', 'stripe_subscription_id'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute()
    expect(subscriptions.map((sub) => sub.order_id)).toEqual([null, orderId])
    const [orphan, live] = subscriptions
    const firstInvoice = fake.billing.invoices.get(
      fake.billing.retrieve(live!.stripe_subscription_id!)!.latest_invoice!,
    )!
    const record = (subscriptionId: string, tag: string, amountMinor: number, paidAt: string) =>
      recordPaidSubscriptionInvoice(db(), {
        subscriptionId,
        userId: user.id,
        stripeInvoiceId: `in_${tag}_${user.id}`,
        amountMinor,
        currency: 'USD',
        periodStart: null,
        periodEnd: new Date('2039-12-31T00:00:00Z'),
        billingReason: 'subscription_cycle',
        paidAt: new Date(paidAt),
      })
    await record(live!.id, 'march', 1500, '2038-03-01T00:00:00Z')
    await record(live!.id, 'february', 0, '2038-02-01T00:00:00Z')
    await record(orphan!.id, 'orphan', 700, '2038-01-15T00:00:00Z')

    const byOrder = await listPaidInvoicesByOrder(db(), user.id)
    expect([...byOrder.keys()]).toEqual([orderId])
    const entry = (amount_minor: number, paid_at: Date, period_end: Date, billing_reason: string) => ({
      order_id: orderId,
      amount_minor,
      currency: 'USD',
      paid_at,
      period_end,
      billing_reason,
      refunded_minor: 0,
      disputed_minor: 0,
    })
    expect(byOrder.get(orderId)).toEqual([
      entry(
        19_999,
        new Date(firstInvoice.status_transitions.paid_at! * 1000),
        new Date(firstInvoice.lines.data[0]!.period.end * 1000),
        'subscription_create',
      ),
      entry(0, new Date('2038-02-01T00:00:00Z'), new Date('2039-12-31T00:00:00Z'), 'subscription_cycle'),
      entry(1500, new Date('2038-03-01T00:00:00Z'), new Date('2039-12-31T00:00:00Z'), 'subscription_cycle'),
    ])
    expect(await listPaidInvoicesByOrder(db(), (await createUser(db())).id)).toEqual(new Map())
  })
})

describe('a monthly service billed by a subscription', () => {
  /** A buyer of monthly SEO management by card (the first month paid at checkout), with its events delivered. */
  async function serviceBuyer() {
    const user = await createUser(db())
    const caller = await callerOf(user)
    const pkg = await servicePackage(db(), 'seo-management', 'Starter SEO Monthly')
    await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
    const orderId = await payCartByCard(fake, caller)
    expect(new Set(await fake.flush())).toEqual(new Set([200])) // subscription_create, the first month paid
    const service = await db()
      .selectFrom('service_orders')
      .select(['title', 'stripe_subscription_id'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow()
    return { user, caller, pkg, orderId, title: service.title, stripeId: service.stripe_subscription_id! }
  }

  it('each paid month after the first gets its own invoice, once; the first month is the order’s; a zero month none', async () => {
    const { user, caller, pkg, orderId, title, stripeId } = await serviceBuyer()
    expect((await invoicesOf(user.id)).map((inv) => [inv.order_id, inv.total_minor])).toEqual([
      [orderId, pkg.price_minor],
    ])
    const id = `in_month2_${user.id}`
    const month = paidInvoice(id, stripeId, {
      amount: pkg.price_minor,
      period: ['2039-02-01T00:00:00Z', '2039-03-01T00:00:00Z'],
      paidAt: '2039-02-01T09:00:00Z',
    })
    expect(await fake.deliver('invoice.paid', month)).toBe(200)
    expect(await fake.deliver('invoice.paid', month)).toBe(200)
    const invoice = await invoiceOfStripe(id)
    expect(await caller.purchases.document({ kind: 'invoice', id: invoice.id })).toEqual({
      kind: 'invoice',
      id: invoice.id,
      number: 'INV-2039-000001',
      issuedAt: '2039-02-01T09:00:00.000Z',
      currency: 'USD',
      seller: SELLER,
      buyer: { name: 'Test User', email: user.email },
      lines: [
        {
          title: `${title} (monthly)`,
          detail: '2039-02-01 to 2039-03-01',
          quantity: 1,
          unitMinor: pkg.price_minor,
          amountMinor: pkg.price_minor,
        },
      ],
      taxLines: [],
      subtotalMinor: pkg.price_minor,
      taxMinor: 0,
      totalMinor: pkg.price_minor,
      orderReference: null,
      invoiceNumber: null,
    })

    const zero = paidInvoice(`in_month3_${user.id}`, stripeId, {
      amount: 0,
      period: ['2039-03-01T00:00:00Z', '2039-04-01T00:00:00Z'],
      paidAt: '2039-03-01T09:00:00Z',
    })
    expect(await fake.deliver('invoice.paid', zero)).toBe(200)
    expect((await invoicesOf(user.id)).map((inv) => inv.stripe_invoice_id)).toEqual([null, id])
    expect(await lastNumber('INV', 2039)).toBe(1)
    const [order] = await caller.purchases.orders()
    expect(order!.renewalInvoices).toEqual([{ id: invoice.id, number: 'INV-2039-000001' }])
  })

  it('recordServiceRenewalInvoice: false for a subscription of no service order; true, numbering only a paid renewal', async () => {
    const { user, pkg, stripeId } = await serviceBuyer()
    const renewal = (tag: string, billingReason: string, amountMinor: number) => ({
      stripeSubscriptionId: stripeId,
      stripeInvoiceId: `in_${tag}_${user.id}`,
      amountMinor,
      currency: 'usd',
      periodStart: null,
      periodEnd: null,
      billingReason,
      paidAt: new Date('2040-06-01T00:00:00Z'),
    })
    const unknown = { ...renewal('unknown', 'subscription_cycle', 4990), stripeSubscriptionId: 'sub_rules_unknown' }
    expect(await recordServiceRenewalInvoice(db(), unknown)).toBe(false)
    expect(await recordServiceRenewalInvoice(db(), renewal('create', 'subscription_create', pkg.price_minor))).toBe(
      true,
    )
    expect(await recordServiceRenewalInvoice(db(), renewal('zero', 'subscription_cycle', 0))).toBe(true)
    expect(await lastNumber('INV', 2040)).toBe(0)
    expect(await recordServiceRenewalInvoice(db(), renewal('cycle', 'subscription_cycle', pkg.price_minor))).toBe(true)
    expect((await invoicesOf(user.id)).map((inv) => [inv.stripe_invoice_id, inv.number, inv.total_minor])).toEqual([
      [null, expect.stringMatching(/^INV-\d{4}-\d{6}$/), pkg.price_minor],
      [`in_cycle_${user.id}`, 'INV-2040-000001', pkg.price_minor],
    ])
    const invoice = await invoiceOfStripe(`in_cycle_${user.id}`)
    expect(await (await callerOf(user)).purchases.document({ kind: 'invoice', id: invoice.id })).toMatchObject({
      currency: 'USD',
      lines: [{ detail: '', amountMinor: pkg.price_minor }],
    })
  })
})
