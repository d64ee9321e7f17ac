// The PDF of an invoice or credit note (orders/document-pdf.ts): its Info dictionary, an A4 page, and every line it
// draws, in order, in its font and at its place: the title and dates, the two parties side by side, one row per
// line with its amount right-aligned, then Subtotal, the tax lines (or a Tax line of 0) and the Total.
import PDFDocument from 'pdfkit'
import { describe, expect, it } from 'vitest'
import { renderDocumentPdf } from '../../src-server/orders/document-pdf.ts'
import type { PrintableDocument } from '../../src-server/orders/documents.ts'
import { type PdfRun, readPdf } from '../support/pdf.ts'

const seller = {
  name: 'Søren & Co (UK) Ltd',
  address: '12 St James’s Square, London SW1Y 4LB, United Kingdom',
  companyNumber: '09876543',
  vatNumber: 'GB999999973',
}

const invoice: PrintableDocument = {
  kind: 'invoice',
  id: '7f8e6a52-54c4-4d43-9b8e-0d7c0d1f2a3b',
  number: 'INV-2026-000042',
  issuedAt: '2026-03-04T23:59:58.123Z',
  currency: 'GBP',
  seller,
  buyer: {
    name: 'Zoë Lovelace',
    email: 'zoe@example.test',
    company: 'Analytical Engines plc',
    address: null,
    companyNumber: null,
    vatNumber: 'GB123',
  },
  lines: [
    { title: 'Modern React', detail: 'Lifetime access', quantity: 1, unitMinor: 123456, amountMinor: 123456 },
    { title: 'SQL Basics', quantity: 1, unitMinor: 5, amountMinor: 5 },
  ],
  taxLines: [
    { name: 'Sales Tax — California 15%', amountMinor: 1800 },
    { name: 'City Tax — San Francisco 5%', amountMinor: 600 },
  ],
  subtotalMinor: 123461,
  taxMinor: 2400,
  totalMinor: 125861,
  orderReference: 'ORD-7Q2K9',
  invoiceNumber: null,
}

// A credit note of a USD invoice that had no order (a subscription's) and no tax; its first line is too long for
// one row of the Description column.
const longTitle = 'The Complete Web Development Bootcamp with React, Node and PostgreSQL'
const creditNote: PrintableDocument = {
  ...invoice,
  kind: 'credit_note',
  number: 'CN-2026-000007',
  issuedAt: '2026-11-30T00:00:00.000Z',
  currency: 'USD',
  buyer: { name: 'Ada Lovelace', email: 'ada@example.test' },
  lines: [
    { title: longTitle, detail: 'Billed monthly', quantity: 1, unitMinor: 2999, amountMinor: 2999 },
    { title: 'Pro Plan', quantity: 1, unitMinor: 100000, amountMinor: 100000 },
  ],
  taxLines: [],
  subtotalMinor: 102999,
  taxMinor: 0,
  totalMinor: 102999,
  orderReference: null,
  invoiceNumber: 'INV-2026-000041',
}

const drawn = (run: PdfRun) => `${run.font} ${run.size}: ${run.text}`

async function pageOf(document: PrintableDocument) {
  const { info, pages } = readPdf(await renderDocumentPdf(document))
  expect(pages).toHaveLength(1)
  return { info, page: pages[0]! }
}

// The right edge of a run, from the font's own metrics: an amount right-aligned in the 145-wide box at x=400 ends at 545.
const measure = new PDFDocument({ size: 'A4' })
const rightEdge = (run: PdfRun) =>
  Math.round((run.x + measure.font(run.font).fontSize(run.size).widthOfString(run.text)) * 100) / 100
/** How far below `above` the run `below` is drawn (baselines), to the hundredth of a point. */
const gap = (above: PdfRun, below: PdfRun) => Math.round((above.y - below.y) * 100) / 100

describe('the PDF of an invoice', () => {
  it('is titled with its number, by the seller, as an Invoice, on one A4 page', async () => {
    const { info, page } = await pageOf(invoice)
    expect({ Title: info.Title, Author: info.Author, Subject: info.Subject }).toEqual({
      Title: 'INV-2026-000042',
      Author: 'Søren & Co (UK) Ltd',
      Subject: 'Invoice',
    })
    expect([page.width, page.height]).toEqual([595.28, 841.89])
  })

  it('draws the title, date, order, both parties, each line, the subtotal, each tax line and the total', async () => {
    const { page } = await pageOf(invoice)
    expect(page.runs.map(drawn)).toEqual([
      'Helvetica-Bold 20: Invoice INV-2026-000042',
      'Helvetica 10: Date: 2026-03-04',
      'Helvetica 10: Order: ORD-7Q2K9',
      'Helvetica-Bold 10: From',
      'Helvetica 10: Søren & Co (UK) Ltd',
      // The address wraps in the party's 230-point column.
      'Helvetica 10: 12 St James’s Square, London SW1Y 4LB, United ',
      'Helvetica 10: Kingdom',
      'Helvetica 10: Company number: 09876543',
      'Helvetica 10: VAT number: GB999999973',
      'Helvetica-Bold 10: To',
      'Helvetica 10: Analytical Engines plc',
      'Helvetica 10: Zoë Lovelace',
      'Helvetica 10: zoe@example.test',
      'Helvetica 10: VAT number: GB123',
      'Helvetica-Bold 10: Description',
      'Helvetica-Bold 10: Amount',
      'Helvetica 10: Modern React (Lifetime access)',
      'Helvetica 10: £1,234.56',
      'Helvetica 10: SQL Basics',
      'Helvetica 10: £0.05',
      'Helvetica 10: Subtotal',
      'Helvetica 10: £1,234.61',
      'Helvetica 10: Sales Tax — California 15%',
      'Helvetica 10: £18.00',
      'Helvetica 10: City Tax — San Francisco 5%',
      'Helvetica 10: £6.00',
      'Helvetica-Bold 10: Total',
      'Helvetica-Bold 10: £1,258.61',
    ])
  })

  it('lays the parties side by side and the table below them, amounts right-aligned on their rows', async () => {
    const { page } = await pageOf(invoice)
    const [title, date, order, from, ...rest] = page.runs
    const to = rest[5]!
    const [description, amount, react, reactAmount, sql, sqlAmount, subtotal, subtotalAmount] = rest.slice(10, 18)
    const [state, stateAmount, city, cityAmount, total, totalAmount] = rest.slice(18)
    // The title block and the From column start at the left margin, the To column at 300.
    expect([title, date, order, from].map((run) => run!.x)).toEqual([50, 50, 50, 50])
    expect(rest.slice(0, 5).map((run) => run.x)).toEqual([50, 50, 50, 50, 50])
    expect(rest.slice(5, 10).map((run) => run.x)).toEqual([300, 300, 300, 300, 300])
    expect(to.y).toBe(from!.y)
    // The table starts 110 points below the parties' headings (both parties are shorter than that).
    expect(gap(from!, description!)).toBe(110)
    expect([description, react, sql].map((run) => run!.x)).toEqual([50, 50, 50])
    expect([subtotal, state, city, total].map((run) => run!.x)).toEqual([300, 300, 300, 300])
    // Every amount, and the Amount heading, ends at the right margin on its label's baseline.
    const pairs = [
      [description, amount],
      [react, reactAmount],
      [sql, sqlAmount],
      [subtotal, subtotalAmount],
      [state, stateAmount],
      [city, cityAmount],
      [total, totalAmount],
    ] as const
    expect(pairs.map(([, right]) => rightEdge(right!))).toEqual([545, 545, 545, 545, 545, 545, 545])
    expect(pairs.map(([left, right]) => gap(left!, right!))).toEqual([0, 0, 0, 0, 0, 0, 0])
    // Rows: 18 points apart in the table, 8 more before the totals, which are 16 apart.
    expect([gap(description!, react!), gap(react!, sql!), gap(sql!, subtotal!)]).toEqual([18, 18, 26])
    expect([gap(subtotal!, state!), gap(state!, city!), gap(city!, total!)]).toEqual([16, 16, 16])
  })

  it('leaves a line between the title block and the parties', async () => {
    const { page } = await pageOf(invoice)
    const [, , order, from] = page.runs
    // Two 11.56-point lines of 10-point Helvetica: the order line's own and an empty one.
    expect(gap(order!, from!)).toBe(23.12)
  })

  it('starts the table two lines below a party too tall for the 110 points', async () => {
    const address = Array.from({ length: 9 }, (_, i) => `Floor ${i + 1}, Tower ${i + 1}, Long Street`).join(', ')
    const { page } = await pageOf({ ...invoice, buyer: { ...invoice.buyer, address } })
    const from = page.runs.find((run) => run.text === 'From')!
    const description = page.runs.find((run) => run.text === 'Description')!
    // The To column's runs above the table; its last is the lowest (PDF y grows upwards).
    const buyerRuns = page.runs.filter((run) => run.x === 300 && run.y > description.y)
    const lastOfBuyer = buyerRuns.reduce((lowest, run) => (run.y < lowest.y ? run : lowest))
    expect(gap(from, lastOfBuyer)).toBeGreaterThan(110)
    // Its own line and two empty ones (3 × 11.56).
    expect(gap(lastOfBuyer, description)).toBe(34.68)
  })
})

describe('the PDF of a credit note', () => {
  it('is titled with its number, by the seller, as a Credit note', async () => {
    const { info } = await pageOf(creditNote)
    expect({ Title: info.Title, Author: info.Author, Subject: info.Subject }).toEqual({
      Title: 'CN-2026-000007',
      Author: 'Søren & Co (UK) Ltd',
      Subject: 'Credit note',
    })
  })

  it('names the invoice it credits, has no order line, prints dollars and a Tax line of 0', async () => {
    const { page } = await pageOf(creditNote)
    expect(page.runs.map(drawn)).toEqual([
      'Helvetica-Bold 20: Credit note CN-2026-000007',
      'Helvetica 10: Date: 2026-11-30',
      'Helvetica 10: Credit for invoice: INV-2026-000041',
      'Helvetica-Bold 10: From',
      'Helvetica 10: Søren & Co (UK) Ltd',
      'Helvetica 10: 12 St James’s Square, London SW1Y 4LB, United ',
      'Helvetica 10: Kingdom',
      'Helvetica 10: Company number: 09876543',
      'Helvetica 10: VAT number: GB999999973',
      'Helvetica-Bold 10: To',
      'Helvetica 10: Ada Lovelace',
      'Helvetica 10: ada@example.test',
      'Helvetica-Bold 10: Description',
      'Helvetica-Bold 10: Amount',
      // The long label wraps in its 330-point column.
      'Helvetica 10: The Complete Web Development Bootcamp with React, Node and ',
      'Helvetica 10: PostgreSQL (Billed monthly)',
      'Helvetica 10: $29.99',
      'Helvetica 10: Pro Plan',
      'Helvetica 10: $1,000.00',
      'Helvetica 10: Subtotal',
      'Helvetica 10: $1,029.99',
      'Helvetica 10: Tax',
      'Helvetica 10: $0.00',
      'Helvetica-Bold 10: Total',
      'Helvetica-Bold 10: $1,029.99',
    ])
  })

  it('starts the row after a wrapped label below its last line', async () => {
    const { page } = await pageOf(creditNote)
    const [first, second, amount, pro, proAmount, subtotal, , tax, , total] = page.runs.slice(14)
    expect([first!.x, second!.x, pro!.x]).toEqual([50, 50, 50])
    expect(gap(first!, amount!)).toBe(0)
    // One line of the label below the other, then the next row 4 points below the label's last line.
    const line = gap(first!, second!)
    expect(gap(second!, pro!)).toBe(Math.round((line + 4) * 100) / 100)
    expect(gap(pro!, proAmount!)).toBe(0)
    expect([gap(pro!, subtotal!), gap(subtotal!, tax!), gap(tax!, total!)]).toEqual([26, 16, 16])
    expect([subtotal, tax, total].map((run) => run!.x)).toEqual([300, 300, 300])
  })
})
