// Invoices and credit notes: each paid order gets an invoice with a gapless yearly number assigned in the paying
// transaction (50 concurrent payments → 50 consecutive numbers), the seller from configuration and the buyer's
// details from checkout; Stripe Tax's amount is recorded; subscription invoices share the series; the print data
// and the PDF are for the buyer and staff only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { markPaid } from '../../../src-server/flows/pay-order.ts'
import { openDatabase } from '../../../src-server/kernel/db.ts'
import { recordSubscriptionInvoice } from '../../../src-server/orders/invoices.ts'
import { configureSeller } from '../../../src-server/orders/seller.ts'
import type { PaymentsConfig } from '../../../src-server/payments/config.ts'
import { createSessionToken, createUser } from '../../support/factories.ts'
import type { FakeStripe } from '../../support/fake-stripe.ts'
import { type PaymentsServer, startPaymentsServer } from '../../support/payments-server.ts'
import { raceIt } from '../../support/race.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let fake: FakeStripe
let payments: PaymentsConfig
const db = () => shop.database.db
const year = new Date().getUTCFullYear()
const INVOICE_NUMBER = new RegExp(`^INV-${year}-\\d{6}$`)

beforeAll(async () => {
  shop = await startPaymentsServer()
  ;({ fake, payments } = shop)
  configureSeller({
    name: 'Seller Test Ltd',
    address: '2 Test Road, Leeds',
    companyNumber: '09876543',
    vatNumber: 'GB999999973',
  })
})
afterAll(() => shop.close())

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').pop()!
const sequenceOf = (number: string) => Number(number.split('-')[2])

async function buyer(offset: number, config = payments) {
  const user = await createUser(db(), { firstName: 'Ada', lastName: 'Lovelace' })
  const caller = await shopCaller(db(), user, config)
  const [course] = await pricedCourses(db(), { offset }) // free courses are never invoiced
  await caller.cart.add({ kind: 'course', courseId: course!.id })
  return { user, caller, course: course! }
}

describe('the invoice of a paid order', () => {
  it('is issued by the payment with the buyer’s checkout details, the seller, lines and totals', async () => {
    const { user, caller, course } = await buyer(0)
    const billing = { company: 'Analytical Engines plc', address: '12 St James’s Square, London', vatNumber: 'GB123' }
    const started = await caller.payments.start({ currency: 'USD', method: 'card', billing })
    if (started.method !== 'card') throw new Error('expected card')
    expect(await fake.deliver('checkout.session.completed', fake.completeSession(sessionIdOf(started.url)))).toBe(200)
    const [order] = await caller.purchases.orders()
    expect(order?.status).toBe('paid')
    expect(order?.invoice?.number).toMatch(INVOICE_NUMBER)

    const invoice = await caller.purchases.document({ kind: 'invoice', id: order!.invoice!.id })
    expect(invoice).toMatchObject({
      number: order!.invoice!.number,
      currency: 'USD',
      orderReference: started.reference,
      seller: { name: 'Seller Test Ltd', address: '2 Test Road, Leeds', companyNumber: '09876543' },
      buyer: { name: 'Ada Lovelace', email: user.email, company: billing.company, vatNumber: 'GB123' },
      lines: [{ title: course.title, quantity: 1, amountMinor: course.price_minor }],
      taxLines: [],
      subtotalMinor: course.price_minor,
      taxMinor: 0,
      totalMinor: course.price_minor,
    })
    // Redelivery and the success page find it paid: still one invoice.
    await fake.deliver('checkout.session.completed', fake.sessions.get(sessionIdOf(started.url)))
    await caller.payments.confirm({ sessionId: sessionIdOf(started.url) })
    const count = await db().selectFrom('invoices').select('id').where('user_id', '=', user.id).execute()
    expect(count).toHaveLength(1)
  })

  it('is readable by its buyer and staff only, as data and as a PDF named after its number', async () => {
    const { user, caller } = await buyer(1)
    const started = await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })
    const admin = await createUser(db(), { role: 'admin' })
    await (await shopCaller(db(), admin, payments)).admin.orders.markPaid({ id: started.orderId })
    const [order] = await caller.purchases.orders()
    const id = order!.invoice!.id

    const stranger = await createUser(db())
    await expect(
      (await shopCaller(db(), stranger, payments)).purchases.document({ kind: 'invoice', id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const viewer = await createUser(db(), { role: 'viewer' })
    expect(await (await shopCaller(db(), viewer, payments)).purchases.document({ kind: 'invoice', id })).toMatchObject({
      number: order!.invoice!.number,
    })

    const base = shop.server.app.server.address() as { port: number }
    const url = `http://127.0.0.1:${base.port}/api/documents/invoice/${id}.pdf`
    const cookieOf = async (userId: string) => `${SESSION_COOKIE}=${(await createSessionToken(db(), userId)).token}`
    const own = await fetch(url, { headers: { cookie: await cookieOf(user.id) } })
    expect(own.status).toBe(200)
    expect(own.headers.get('content-type')).toBe('application/pdf')
    expect(own.headers.get('content-disposition')).toBe(`attachment; filename="${order!.invoice!.number}.pdf"`)
    const bytes = Buffer.from(await own.arrayBuffer())
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(bytes.toString('latin1')).toContain(`(${order!.invoice!.number})`) // the document's title
    expect((await fetch(url, { headers: { cookie: await cookieOf(stranger.id) } })).status).toBe(404)
    expect((await fetch(url)).status).toBe(401)
    expect((await fetch(url, { headers: { cookie: await cookieOf(viewer.id) } })).status).toBe(200)
  })

  it('records the tax Stripe Tax computed when STRIPE_TAX is on', async () => {
    const taxed: PaymentsConfig = { ...payments, stripeTax: true }
    const { caller, course } = await buyer(2, taxed)
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const sessionId = sessionIdOf(started.url)
    expect(fake.createParams.get(sessionId)?.automatic_tax).toEqual({ enabled: 'true' })
    await fake.deliver('checkout.session.completed', fake.completeSession(sessionId))
    const [order] = await caller.purchases.orders()
    const tax = Math.round(course.price_minor * 0.2)
    expect(order?.totalMinor).toBe(course.price_minor + tax)
    const invoice = await caller.purchases.document({ kind: 'invoice', id: order!.invoice!.id })
    // One line per jurisdiction, from Stripe Tax's breakdown (read back expanded: events do not carry it).
    const state = Math.round((tax * 3) / 4)
    expect(invoice).toMatchObject({
      subtotalMinor: course.price_minor,
      taxLines: [
        { name: 'Sales Tax — California 15%', amountMinor: state },
        { name: 'City Tax — San Francisco 5%', amountMinor: tax - state },
      ],
      taxMinor: tax,
      totalMinor: course.price_minor + tax,
    })
    // Without STRIPE_TAX no automatic_tax is asked for.
    const plain = await buyer(3)
    const untaxed = await plain.caller.payments.start({ currency: 'USD', method: 'card' })
    if (untaxed.method !== 'card') throw new Error('expected card')
    expect(fake.createParams.get(sessionIdOf(untaxed.url))?.automatic_tax).toBeUndefined()
  })
})

describe('gapless numbering', () => {
  raceIt('gives 50 concurrent payments 50 consecutive numbers; a rolled-back payment uses none', async () => {
    const orders: string[] = []
    for (let i = 0; i < 50; i++) {
      const { caller } = await buyer(i % 20)
      orders.push((await caller.payments.start({ currency: 'USD', method: 'bank_transfer' })).orderId)
    }
    // A payment whose transaction fails after taking a number gives it back.
    const before = await db()
      .selectFrom('document_counters')
      .select('last_number')
      .where('kind', '=', 'INV')
      .executeTakeFirst()
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await markPaid(trx, orders[0]!, { source: 'staff' })
          throw new Error('rolled back')
        }),
    ).rejects.toThrow('rolled back')
    const after = await db()
      .selectFrom('document_counters')
      .select('last_number')
      .where('kind', '=', 'INV')
      .executeTakeFirst()
    expect(after?.last_number).toBe(before?.last_number)

    // All 50 at the database at once (the test database's own pool has 5 connections; a queue of 45 behind the
    // counter's lock could also outwait the pool's 5 s connect timeout on a loaded machine).
    const wide = await openDatabase({ databaseUrl: shop.database.url!, poolSize: 50 })
    const results = await Promise.all(orders.map((id) => markPaid(wide.db, id, { source: 'staff' }))).finally(() =>
      wide.close(),
    )
    expect(results).toEqual(Array(50).fill('fulfilled'))
    const numbers = await db().selectFrom('invoices').select('number').where('order_id', 'in', orders).execute()
    const sequence = numbers.map((row) => sequenceOf(row.number)).sort((a, b) => a - b)
    expect(sequence).toHaveLength(50)
    expect(sequence).toEqual(Array.from({ length: 50 }, (_, i) => sequence[0]! + i))
    // Nothing else was numbered meanwhile: the series has no hole before them either.
    const all = (await db().selectFrom('invoices').select('number').execute()).map((row) => sequenceOf(row.number))
    expect(Math.max(...all)).toBe(all.length)
  })

  it('numbers subscription invoices in the same series, once per Stripe invoice', async () => {
    const user = await createUser(db())
    const paid = {
      userId: user.id,
      stripeInvoiceId: `in_test_${user.id.slice(0, 8)}`,
      currency: 'usd',
      lines: [{ title: 'Pro Plan', detail: 'Billed monthly', amountMinor: 2999 }],
      paidAt: new Date(),
    }
    const first = await recordSubscriptionInvoice(db(), paid)
    expect(first).toMatch(INVOICE_NUMBER)
    expect(await recordSubscriptionInvoice(db(), paid)).toBe(first)
    const all = (await db().selectFrom('invoices').select('number').execute()).map((row) => sequenceOf(row.number))
    expect(Math.max(...all)).toBe(all.length)
    expect(sequenceOf(first)).toBe(all.length)
  })
})
