// The read side of orders (orders/repository.ts), exactly: the buyer's order history on /account (each order with
// its own invoice, renewal invoices, credit notes, lines with their refund and refund request, the plan's trial
// and payments, and Resume payment only on a pending card order with a Stripe page), the staff Orders list (newest
// first, by status or all, customer e-mail, invoice, paid date, the dashboard refund waiting for lines, at most the
// rows asked for), and whether a course was ever ordered (archived rather than deleted).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFromCart } from '../../../src-server/flows/cart-order.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { courseHasOrderLines, listOrdersForStaff } from '../../../src-server/orders/repository.ts'
import { recordPaidSubscriptionInvoice } from '../../../src-server/orders/subscription-invoices.ts'
import { trialStartedText } from '../../../src-shared/membership.ts'
import { createTestDatabase } from '../../support/db.ts'
import { callerAs, createUser, type TestUser } from '../../support/factories.ts'
import { placeOrder } from '../../support/orders.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let database: DatabaseHandle
let admin: TestUser
const db = () => database.db

beforeAll(async () => {
  database = await createTestDatabase()
  admin = await createUser(db(), { role: 'admin' })
})
afterAll(() => database.close())

/** created_at is insert-only in the types; tests place orders in time to read a stable order back. */
const createdAt = (orderId: string, at: Date) =>
  db()
    .updateTable('orders')
    .set({ created_at: at } as never)
    .where('id', '=', orderId)
    .execute()
const orderOf = (orderId: string) =>
  db()
    .selectFrom('orders')
    .select(['id', 'reference', 'paid_at', 'refunded_minor', 'total_minor'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
const invoiceOf = (orderId: string) =>
  db().selectFrom('invoices').select(['id', 'number']).where('order_id', '=', orderId).executeTakeFirstOrThrow()
const linesOf = (orderId: string) =>
  db()
    .selectFrom('order_items')
    .select(['id', 'kind', 'title', 'detail', 'unit_price_minor', 'course_id'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute()
const historyOf = async (user: TestUser) => (await shopCaller(db(), user)).purchases.orders()

describe('the buyer’s order history', () => {
  it('is empty for a buyer without orders', async () => {
    expect(await historyOf(await createUser(db()))).toEqual([])
  })

  it('shows each order with its own documents, lines, refund requests, plan story and Resume payment', async () => {
    const user = await createUser(db())
    const caller = await shopCaller(db(), user)
    const [first, second, third] = await pricedCourses(db(), { count: 3, offset: 2 })

    // A bank transfer of two courses, paid; one line refunded by staff, a refund asked for on the other.
    const bank = await placeOrder(db(), {
      userId: user.id,
      courses: [first!, second!],
      reference: 'SF-HIST-BANK',
      method: 'bank_transfer',
    })
    expect(await markPaid(db(), bank, { source: 'staff' })).toBe('fulfilled')
    const [kept, refunded] = await linesOf(bank)
    await (await callerAs(db(), admin)).admin.orders.refund({
      orderId: bank,
      lineIds: [refunded!.id],
      reference: 'BANK-RETURN-1',
    })
    await caller.purchases.requestRefund({ lineId: kept!.id, reason: 'Not for me' })

    // A plan bought by card with the free trial; Stripe then billed the trial (0) and two paid months.
    await caller.cart.add({ kind: 'plan', planId: 'basic', billingCycle: 'monthly' })
    const plan = await createFromCart(db(), { userId: user.id, currency: 'USD', method: 'card', referencePrefix: 'SF' })
    await db().updateTable('orders').set({ stripe_session_id: 'cs_hist_plan' }).where('id', '=', plan.id).execute()
    expect(await markPaid(db(), plan.id, { source: 'stripe', stripeSubscriptionId: 'sub_hist' })).toBe('fulfilled')
    const sub = await db()
      .selectFrom('subscriptions')
      .select(['id', 'trial_ends_at', 'amount_minor'])
      .where('order_id', '=', plan.id)
      .executeTakeFirstOrThrow()
    const paidAt = [
      new Date('2026-02-01T10:00:00Z'),
      new Date('2026-02-08T10:00:00Z'),
      new Date('2026-03-08T10:00:00Z'),
    ]
    for (const [index, amountMinor] of [0, 999, 999].entries()) {
      await recordPaidSubscriptionInvoice(db(), {
        subscriptionId: sub.id,
        userId: user.id,
        stripeInvoiceId: `in_hist_${index}`,
        amountMinor,
        currency: 'usd',
        periodStart: null,
        periodEnd: null,
        billingReason: index === 0 ? 'subscription_create' : 'subscription_cycle',
        paidAt: paidAt[index]!,
      })
    }
    const renewalInvoices = await db()
      .selectFrom('invoices')
      .select(['id', 'number'])
      .where('stripe_invoice_id', 'in', ['in_hist_1', 'in_hist_2'])
      .orderBy('number')
      .execute()
    expect(renewalInvoices).toHaveLength(2)

    // A card checkout whose Stripe page is open, and one (in GBP) that never got a page.
    const open = await placeOrder(db(), { userId: user.id, courseId: third!.id, reference: 'SF-HIST-OPEN' })
    await db().updateTable('orders').set({ stripe_session_id: 'cs_hist_open' }).where('id', '=', open).execute()
    const noPage = await placeOrder(db(), {
      userId: user.id,
      courseId: third!.id,
      reference: 'SF-HIST-NOPAGE',
      currency: 'GBP',
      totalMinor: 2500,
    })
    for (const [index, id] of [bank, plan.id, open, noPage].entries()) {
      await createdAt(id, new Date(Date.UTC(2026, 0, 1 + index)))
    }

    const creditNotes = await db()
      .selectFrom('credit_notes as cn')
      .innerJoin('invoices as i', 'i.id', 'cn.invoice_id')
      .select(['cn.id', 'cn.number', 'cn.total_minor'])
      .where('i.order_id', '=', bank)
      .execute()
    expect(creditNotes).toEqual([
      { id: expect.any(String), number: expect.any(String), total_minor: refunded!.unit_price_minor },
    ])
    const bankRow = await orderOf(bank)
    const planRow = await orderOf(plan.id)
    const planLines = await linesOf(plan.id)
    const noInstructions = { bank: null, paypalUrl: null }
    const item = (line: Awaited<ReturnType<typeof linesOf>>[number]) => ({
      id: line.id,
      kind: line.kind,
      title: line.title,
      detail: line.detail,
      priceMinor: line.unit_price_minor,
      discountMinor: 0,
      freeTrial: false,
      courseId: line.course_id,
      bundleId: null,
      bundleTitle: null,
      gift: null,
    })

    expect(await historyOf(user)).toEqual([
      {
        id: noPage,
        reference: 'SF-HIST-NOPAGE',
        currency: 'GBP',
        method: 'card',
        status: 'pending',
        totalMinor: 2500,
        refundedMinor: 0,
        createdAt: '2026-01-04T00:00:00.000Z',
        paidAt: null,
        resumable: false,
        fromCart: true,
        school: null,
        invoice: null,
        renewalInvoices: [],
        creditNotes: [],
        items: (await linesOf(noPage)).map((line) => ({ ...item(line), refunded: false, refundRequest: null })),
        subscription: null,
        ...noInstructions,
      },
      {
        id: open,
        reference: 'SF-HIST-OPEN',
        currency: 'USD',
        method: 'card',
        status: 'pending',
        totalMinor: 4999,
        refundedMinor: 0,
        createdAt: '2026-01-03T00:00:00.000Z',
        paidAt: null,
        resumable: true,
        fromCart: true,
        school: null,
        invoice: null,
        renewalInvoices: [],
        creditNotes: [],
        items: (await linesOf(open)).map((line) => ({ ...item(line), refunded: false, refundRequest: null })),
        subscription: null,
        ...noInstructions,
      },
      {
        id: plan.id,
        reference: plan.reference,
        currency: 'USD',
        method: 'card',
        status: 'paid',
        totalMinor: planRow.total_minor,
        refundedMinor: 0,
        createdAt: '2026-01-02T00:00:00.000Z',
        paidAt: planRow.paid_at!.toISOString(),
        resumable: false,
        fromCart: true,
        school: null,
        invoice: await invoiceOf(plan.id),
        renewalInvoices,
        creditNotes: [],
        items: planLines.map((line) => ({ ...item(line), refunded: false, refundRequest: null })),
        subscription: {
          trialText: trialStartedText(sub.amount_minor!, 'USD', sub.trial_ends_at!),
          payments: [
            // Nothing of either came back.
            {
              amountMinor: 999,
              currency: 'usd',
              paidAt: '2026-02-08T10:00:00.000Z',
              refundedMinor: 0,
              disputedMinor: 0,
            },
            {
              amountMinor: 999,
              currency: 'usd',
              paidAt: '2026-03-08T10:00:00.000Z',
              refundedMinor: 0,
              disputedMinor: 0,
            },
          ],
        },
        ...noInstructions,
      },
      {
        id: bank,
        reference: 'SF-HIST-BANK',
        currency: 'USD',
        method: 'bank_transfer',
        status: 'partially_refunded',
        totalMinor: first!.price_minor + second!.price_minor,
        refundedMinor: refunded!.unit_price_minor,
        createdAt: '2026-01-01T00:00:00.000Z',
        paidAt: bankRow.paid_at!.toISOString(),
        resumable: false,
        fromCart: true,
        school: null,
        invoice: await invoiceOf(bank),
        renewalInvoices: [],
        creditNotes: creditNotes.map((note) => ({ id: note.id, number: note.number, totalMinor: note.total_minor })),
        items: [
          { ...item(kept!), refunded: false, refundRequest: { status: 'open', decisionReason: null } },
          { ...item(refunded!), refunded: true, refundRequest: null },
        ],
        subscription: null,
        ...noInstructions,
      },
    ])
    expect(planLines.map((line) => line.kind)).toEqual(['plan'])
    expect(bankRow.refunded_minor).toBe(refunded!.unit_price_minor)
  })

  it('tells a plan’s free trial only when the plan had one and a price, in the plan’s currency', async () => {
    const [course] = await pricedCourses(db(), { offset: 6 })
    const trialEnds = new Date('2026-05-09T12:00:00Z')
    const cases = [
      { trial_ends_at: null, amount_minor: 999, currency: 'USD', text: null },
      { trial_ends_at: trialEnds, amount_minor: null, currency: 'USD', text: null },
      { trial_ends_at: trialEnds, amount_minor: 1500, currency: 'GBP', text: trialStartedText(1500, 'GBP', trialEnds) },
      { trial_ends_at: trialEnds, amount_minor: 999, currency: null, text: trialStartedText(999, 'USD', trialEnds) },
    ]
    for (const [index, sub] of cases.entries()) {
      const user = await createUser(db())
      const orderId = await placeOrder(db(), {
        userId: user.id,
        courseId: course!.id,
        reference: `SF-TRIAL-${index}`,
        status: 'paid',
      })
      await db()
        .insertInto('subscriptions')
        .values({
          user_id: user.id,
          plan_id: 'basic',
          billing_cycle: 'monthly',
          status: 'active',
          order_id: orderId,
          trial_ends_at: sub.trial_ends_at,
          amount_minor: sub.amount_minor,
          currency: sub.currency,
        })
        .execute()
      const [order] = await historyOf(user)
      expect(order?.subscription).toEqual({ trialText: sub.text, payments: [] })
    }
    expect(trialStartedText(1500, 'GBP', trialEnds)).toContain('£15.00')
  })
})

describe('the staff Orders list', () => {
  it('newest first, all statuses or one, with the customer, invoice, paid date and a refund waiting for lines', async () => {
    const [course] = await pricedCourses(db(), { offset: 7 })
    const customer = await createUser(db())
    const place = async (reference: string, minute: number) => {
      const id = await placeOrder(db(), {
        userId: customer.id,
        courseId: course!.id,
        reference,
        method: 'bank_transfer',
        currency: minute === 2 ? 'GBP' : 'USD',
      })
      // After anything else in this file's database: these are the newest orders.
      await createdAt(id, new Date(Date.UTC(2031, 0, 1, 0, minute)))
      return id
    }
    const paid = await place('SF-STAFF-PAID', 1)
    await markPaid(db(), paid, { source: 'staff' })
    const flagged = await place('SF-STAFF-FLAGGED', 3)
    await markPaid(db(), flagged, { source: 'staff' })
    const waiting = await place('SF-STAFF-WAITING', 2)
    await db()
      .insertInto('refunds')
      .values([
        { order_id: paid, amount_minor: 100, method: 'manual', reference: 'R-1', needs_line_assignment: false },
        { order_id: flagged, amount_minor: 100, method: 'stripe', reference: 're_1', needs_line_assignment: true },
      ])
      .execute()
    const row = async (id: string, status: string, currency: string, flaggedLines: boolean) => {
      const order = await orderOf(id)
      const invoice = order.paid_at ? await invoiceOf(id) : null
      return {
        id,
        reference: order.reference,
        customerEmail: customer.email,
        currency,
        method: 'bank_transfer',
        status,
        totalMinor: order.total_minor,
        createdAt: expect.stringMatching(/^2031-01-01T00:0\d:00\.000Z$/),
        paidAt: order.paid_at?.toISOString() ?? null,
        invoice,
        needsLineAssignment: flaggedLines,
        // Money is left to give back on the paid ones.
        refundable: status === 'paid',
      }
    }
    const expected = [
      await row(flagged, 'paid', 'USD', true),
      await row(waiting, 'pending', 'GBP', false),
      await row(paid, 'paid', 'USD', false),
    ]
    // Staff see each order with the plan it started, if any (none of these did), so nothing to end.
    const listed = expected.map((order) => ({ ...order, plan: null, membership: null }))
    const staff = await callerAs(db(), admin)
    expect((await staff.admin.orders.list({})).items.slice(0, 3)).toEqual(listed)
    const pending = (await staff.admin.orders.list({ status: 'pending' })).items
    expect(pending[0]).toEqual(listed[1])
    expect(pending.every((order) => order.status === 'pending')).toBe(true)
    expect((await staff.admin.orders.list({ status: 'paid' })).items.slice(0, 2)).toEqual([listed[0], listed[2]])
    // At most the rows asked for.
    expect(await listOrdersForStaff(db(), { limit: 2 })).toEqual(expected.slice(0, 2))
  })
})

describe('whether a course was ever ordered', () => {
  it('any order line counts, a pending one too; a course nobody ordered has none', async () => {
    const [ordered, never] = await pricedCourses(db(), { count: 2, offset: 9 })
    const user = await createUser(db())
    await placeOrder(db(), { userId: user.id, courseId: ordered!.id, reference: 'SF-EVER-1', method: 'bank_transfer' })
    expect(await courseHasOrderLines(db(), ordered!.id)).toBe(true)
    expect(await courseHasOrderLines(db(), never!.id)).toBe(false)
  })
})
