// GET /api/documents/:kind/:id.pdf (http/order-documents.ts): an invoice's or credit note's PDF, for the buyer it
// names and staff only (an admin or owner with the second factor STAFF_2FA requires), as a private, uncached
// attachment named after the document's number. Anyone signed in who may not read it, and any address that is not
// an existing document of that kind, gets the same 404; no session is a 401 (only for a well-formed address); a
// document that cannot be drawn is a 500, never a 404.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../../src-server/auth/session.ts'
import { INTERNAL_ERROR_MESSAGE } from '../../../src-shared/errors.ts'
import { formatMoney } from '../../../src-shared/money.ts'
import { createSessionToken, createUser, type TestUser } from '../../support/factories.ts'
import { captureJsonLogs } from '../../support/json-logs.ts'
import { type PaymentsServer, payCartByCard, startPaymentsServer } from '../../support/payments-server.ts'
import { readPdf } from '../../support/pdf.ts'
import { pricedCourses, shopCaller } from '../../support/shop.ts'

let shop: PaymentsServer
let buyer: TestUser
let reference: string
let invoice: { id: string; number: string; issued: string; totalMinor: number }
let note: { id: string; number: string; issued: string; totalMinor: number }
const db = () => shop.database.db

const NOT_FOUND = { error: 'Not Found', message: 'Document not found' }
/** The server's JSON log lines (pino: level 30 info, 40 warn, 50 error; reqId the request's X-Request-Id). */
const { lines: logLines, stream: logStream } = captureJsonLogs<{ level: number; reqId?: string; msg: string }>()

beforeAll(async () => {
  shop = await startPaymentsServer({ logStream, staffTwoFactor: 'required' })
  const admin = await createUser(db(), { role: 'admin' })
  buyer = await createUser(db(), { firstName: 'Ada', lastName: 'Lovelace' })
  const caller = await shopCaller(db(), buyer, shop.payments)
  const courses = await pricedCourses(db(), { count: 2 })
  for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
  const orderId = await payCartByCard(shop.fake, caller)
  // Staff refund the first course: a credit note for that line.
  const staff = await shopCaller(db(), admin, shop.payments)
  const line = (await staff.admin.orders.detail({ id: orderId })).lines.find((l) => l.title === courses[0]!.title)
  await staff.admin.orders.refund({ orderId, lineIds: [line!.id] })
  const [order] = await caller.purchases.orders()
  reference = order!.reference
  const invoiceRow = await db()
    .selectFrom('invoices')
    .select(['id', 'number', 'issued_at', 'total_minor'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow()
  const noteRow = await db()
    .selectFrom('credit_notes')
    .select(['id', 'number', 'issued_at', 'total_minor'])
    .where('invoice_id', '=', invoiceRow.id)
    .executeTakeFirstOrThrow()
  const facts = (row: typeof invoiceRow) => ({
    id: row.id,
    number: row.number,
    issued: row.issued_at.toISOString().slice(0, 10),
    totalMinor: row.total_minor,
  })
  invoice = facts(invoiceRow)
  note = facts(noteRow)
  expect(order!.invoice?.id).toBe(invoice.id)
  expect(order!.creditNotes.map((n) => n.id)).toEqual([note.id])
})
afterAll(() => shop.close())

/** GET a document path as a user (or without a session), with the body as bytes or JSON. */
async function download(path: string, user?: { id: string }) {
  const base = `http://127.0.0.1:${(shop.server.app.server.address() as { port: number }).port}`
  const headers: Record<string, string> = {}
  if (user) headers.cookie = `${SESSION_COOKIE}=${(await createSessionToken(db(), user.id)).token}`
  const response = await fetch(`${base}/api/documents/${path}`, { headers, signal: AbortSignal.timeout(10_000) })
  const bytes = Buffer.from(await response.arrayBuffer())
  const json = () => JSON.parse(bytes.toString('utf8')) as unknown
  return { status: response.status, headers: response.headers, bytes, json }
}

describe('a document’s PDF, for its buyer', () => {
  it('is the invoice as a private, uncached attachment named after its number', async () => {
    const got = await download(`invoice/${invoice.id}.pdf`, buyer)
    expect(got.status).toBe(200)
    expect({
      type: got.headers.get('content-type'),
      disposition: got.headers.get('content-disposition'),
      cache: got.headers.get('cache-control'),
    }).toEqual({
      type: 'application/pdf',
      disposition: `attachment; filename="${invoice.number}.pdf"`,
      cache: 'private, no-store',
    })
    const { info, pages } = readPdf(got.bytes)
    expect([info.Title, info.Author, info.Subject]).toEqual([invoice.number, 'SkillForge Ltd', 'Invoice'])
    const text = pages.flatMap((page) => page.runs.map((run) => run.text))
    expect(text.slice(0, 3)).toEqual([`Invoice ${invoice.number}`, `Date: ${invoice.issued}`, `Order: ${reference}`])
    expect(text.slice(-2)).toEqual(['Total', formatMoney(invoice.totalMinor, 'USD')])
  })

  it('is the credit note likewise, naming the invoice it credits', async () => {
    const got = await download(`credit_note/${note.id}.pdf`, buyer)
    expect(got.status).toBe(200)
    expect([
      got.headers.get('content-type'),
      got.headers.get('content-disposition'),
      got.headers.get('cache-control'),
    ]).toEqual(['application/pdf', `attachment; filename="${note.number}.pdf"`, 'private, no-store'])
    const { info, pages } = readPdf(got.bytes)
    expect([info.Title, info.Author, info.Subject]).toEqual([note.number, 'SkillForge Ltd', 'Credit note'])
    const text = pages.flatMap((page) => page.runs.map((run) => run.text))
    expect(text.slice(0, 4)).toEqual([
      `Credit note ${note.number}`,
      `Date: ${note.issued}`,
      `Order: ${reference}`,
      `Credit for invoice: ${invoice.number}`,
    ])
    expect(text.slice(-2)).toEqual(['Total', formatMoney(note.totalMinor, 'USD')])
  })

  it('is found whatever the case of the id', async () => {
    const got = await download(`invoice/${invoice.id.toUpperCase()}.pdf`, buyer)
    expect([got.status, got.headers.get('content-disposition')]).toEqual([
      200,
      `attachment; filename="${invoice.number}.pdf"`,
    ])
  })
})

describe('who may download a document', () => {
  it('staff of any role may; another customer is told it does not exist; no session is a 401', async () => {
    const viewer = await createUser(db(), { role: 'viewer' })
    const stranger = await createUser(db())
    const admin = await createUser(db(), { role: 'admin' })
    const anonymousIds: string[] = []
    for (const [kind, id] of [
      ['invoice', invoice.id],
      ['credit_note', note.id],
    ] as const) {
      expect((await download(`${kind}/${id}.pdf`, viewer)).status).toBe(200)
      const refused = await download(`${kind}/${id}.pdf`, stranger)
      expect([refused.status, refused.json()]).toEqual([404, NOT_FOUND])
      // An admin without the second factor STAFF_2FA requires has no staff reach: as another customer.
      const unfactored = await download(`${kind}/${id}.pdf`, admin)
      expect([unfactored.status, unfactored.json()]).toEqual([404, NOT_FOUND])
      const anonymous = await download(`${kind}/${id}.pdf`)
      expect([anonymous.status, anonymous.json()]).toEqual([
        401,
        { error: 'Unauthorized', message: 'User not authenticated' },
      ])
      anonymousIds.push(anonymous.headers.get('x-request-id')!)
    }
    // A request without a session ends at its 401: the document is not read for it, and nothing fails after the
    // answer (checked once a later download has been served, so the server has finished with the 401s).
    expect((await download(`invoice/${invoice.id}.pdf`, viewer)).status).toBe(200)
    const lines = logLines.filter((line) => anonymousIds.includes(line.reqId!))
    expect(lines.map((line) => [line.level, line.msg])).toEqual(anonymousIds.map(() => [30, 'request']))
  })
})

describe('addresses that are not a document', () => {
  it('an unknown kind, the other kind’s id, no .pdf, a malformed or unknown id: 404 for the buyer', async () => {
    const paths = [
      `receipt/${note.id}.pdf`,
      `receipt/${invoice.id}.pdf`,
      `credit_note/${invoice.id}.pdf`,
      `invoice/${note.id}.pdf`,
      `invoice/${invoice.id}`,
      `invoice/${invoice.id}.pdf.pdf`,
      `invoice/${invoice.id}.pdfx`,
      `invoice/a${invoice.id}.pdf`,
      `invoice/${invoice.id}0.pdf`,
      `invoice/${invoice.id.slice(0, -1)}.pdf`,
      `invoice/${invoice.id.replace(/-/g, '')}.pdf`,
      'invoice/not-a-document.pdf',
      `invoice/${randomUUID()}.pdf`,
      `credit_note/${randomUUID()}.pdf`,
    ]
    const answers = await Promise.all(paths.map((path) => download(path, buyer)))
    expect(answers.map((got) => [got.status, got.json()])).toEqual(paths.map(() => [404, NOT_FOUND]))
  })

  it('is a 404 before any session is asked for', async () => {
    const paths = [`receipt/${note.id}.pdf`, `invoice/${invoice.id}`, 'invoice/not-a-document.pdf']
    const answers = await Promise.all(paths.map((path) => download(path)))
    expect(answers.map((got) => [got.status, got.json()])).toEqual(paths.map(() => [404, NOT_FOUND]))
  })
})

it('a document that cannot be drawn is a 500 with the generic message, not a 404', async () => {
  const row = await db()
    .insertInto('invoices')
    .values({
      number: `INV-BROKEN-${randomUUID().slice(0, 8)}`,
      user_id: buyer.id,
      currency: 'USD',
      seller: JSON.stringify({ name: 'SkillForge Ltd' }),
      buyer: JSON.stringify({ name: 'Ada Lovelace' }),
      lines: JSON.stringify([null]), // not a line: drawing it fails
      tax_lines: JSON.stringify([]),
      subtotal_minor: 100,
      tax_minor: 0,
      total_minor: 100,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const got = await download(`invoice/${row.id}.pdf`, buyer)
  expect([got.status, got.json()]).toEqual([
    500,
    { error: 'Internal Server Error', message: INTERNAL_ERROR_MESSAGE, requestId: got.headers.get('x-request-id') },
  ])
})
