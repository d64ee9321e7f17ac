// The PDF of an invoice or credit note, drawn on the server with PDFKit (decision 0014): an A4 page with the seller
// and buyer, the lines, the tax lines and the totals. The document number is also the PDF's title.
import { partyLines } from '../../src-shared/documents.ts'
import { formatMoney } from '../../src-shared/money.ts'
import type { PrintableDocument } from './documents.ts'

const TITLES = { invoice: 'Invoice', credit_note: 'Credit note' } as const

export async function renderDocumentPdf(document: PrintableDocument): Promise<Buffer> {
  // Loaded on first use: PDFKit is ~10 MB of a server's memory that only document downloads need (decision 0029).
  const { default: PDFDocument } = await import('pdfkit')
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: document.number, Author: document.seller.name, Subject: TITLES[document.kind] },
  })
  const chunks: Buffer[] = []
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
  })
  const money = (minor: number) => formatMoney(minor, document.currency)

  pdf.font('Helvetica-Bold').fontSize(20).text(`${TITLES[document.kind]} ${document.number}`)
  pdf.font('Helvetica').fontSize(10).moveDown(0.5)
  pdf.text(`Date: ${document.issuedAt.slice(0, 10)}`)
  if (document.orderReference) pdf.text(`Order: ${document.orderReference}`)
  if (document.invoiceNumber) pdf.text(`Credit for invoice: ${document.invoiceNumber}`)
  pdf.moveDown()

  const partyTop = pdf.y
  party(pdf, 'From', document.seller, 50, partyTop)
  party(pdf, 'To', document.buyer, 300, partyTop)
  pdf.moveDown(2)

  let y = Math.max(pdf.y, partyTop + 110)
  pdf.font('Helvetica-Bold').text('Description', 50, y).text('Amount', 400, y, { width: 145, align: 'right' })
  pdf.font('Helvetica')
  y += 18
  for (const line of document.lines) {
    const label = line.detail ? `${line.title} (${line.detail})` : line.title
    pdf.text(label, 50, y, { width: 330 })
    // A long label wraps: the next line starts below its last line, not below the (one-line) amount.
    const labelBottom = pdf.y
    pdf.text(money(line.amountMinor), 400, y, { width: 145, align: 'right' })
    y = Math.max(labelBottom, y + 14) + 4
  }
  y += 8
  const totals: [string, number][] = [
    ['Subtotal', document.subtotalMinor],
    ...document.taxLines.map((tax): [string, number] => [tax.name, tax.amountMinor]),
  ]
  if (document.taxLines.length === 0) totals.push(['Tax', 0])
  for (const [label, amount] of totals) {
    pdf.text(label, 300, y).text(money(amount), 400, y, { width: 145, align: 'right' })
    y += 16
  }
  pdf
    .font('Helvetica-Bold')
    .text('Total', 300, y)
    .text(money(document.totalMinor), 400, y, { width: 145, align: 'right' })
  pdf.end()
  return done
}

function party(pdf: PDFKit.PDFDocument, heading: string, who: PrintableDocument['seller'], x: number, y: number) {
  const rows = partyLines(who)
  pdf.font('Helvetica-Bold').text(heading, x, y, { width: 230 })
  pdf.font('Helvetica')
  for (const row of rows) pdf.text(row, x, pdf.y, { width: 230 })
}
