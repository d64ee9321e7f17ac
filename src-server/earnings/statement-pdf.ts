// A creator's monthly statement as a PDF, drawn with PDFKit like the invoices (orders/document-pdf.ts, decision
// 0014): an A4 page with the creator, the month, one line per ledger entry and the month's totals per account.
import { type Currency, formatMoney } from '../../src-shared/money.ts'

export interface PrintableStatement {
  month: string
  creatorName: string
  creatorEmail: string
  entries: {
    at: Date
    description: string
    currency: Currency
    pendingMinor: number
    availableMinor: number
    paidOutMinor: number
  }[]
  totals: { currency: Currency; pendingMinor: number; availableMinor: number; paidOutMinor: number }[]
}

const COLUMNS = { date: 50, description: 115, pending: 330, available: 405, paidOut: 480 } as const
const AMOUNT_WIDTH = 65

export async function renderStatementPdf(statement: PrintableStatement): Promise<Buffer> {
  // Loaded on first use, as for invoices: only downloads need PDFKit (decision 0029).
  const { default: PDFDocument } = await import('pdfkit')
  const title = `Earnings statement ${statement.month}`
  const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: title, Subject: 'Creator earnings statement' } })
  const chunks: Buffer[] = []
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
  })

  pdf.font('Helvetica-Bold').fontSize(20).text(title)
  pdf.font('Helvetica').fontSize(10).moveDown(0.5)
  pdf.text(`${statement.creatorName} <${statement.creatorEmail}>`)
  pdf.moveDown()

  const amount = (minor: number, currency: Currency, x: number, y: number) =>
    pdf.text(minor === 0 ? '–' : formatMoney(minor, currency), x, y, { width: AMOUNT_WIDTH, align: 'right' })
  let y = pdf.y
  pdf
    .font('Helvetica-Bold')
    .text('Date', COLUMNS.date, y)
    .text('Description', COLUMNS.description, y)
    .text('Pending', COLUMNS.pending, y, { width: AMOUNT_WIDTH, align: 'right' })
    .text('Available', COLUMNS.available, y, { width: AMOUNT_WIDTH, align: 'right' })
    .text('Paid out', COLUMNS.paidOut, y, { width: AMOUNT_WIDTH, align: 'right' })
  pdf.font('Helvetica')
  y += 18
  if (statement.entries.length === 0) {
    pdf.text('Nothing happened on your earnings this month.', COLUMNS.date, y)
    y += 18
  }
  for (const entry of statement.entries) {
    if (y > 760) {
      pdf.addPage()
      y = 50
    }
    pdf.text(entry.at.toISOString().slice(0, 10), COLUMNS.date, y)
    pdf.text(entry.description, COLUMNS.description, y, { width: 205 })
    const bottom = pdf.y
    amount(entry.pendingMinor, entry.currency, COLUMNS.pending, y)
    amount(entry.availableMinor, entry.currency, COLUMNS.available, y)
    amount(entry.paidOutMinor, entry.currency, COLUMNS.paidOut, y)
    y = Math.max(bottom, y + 14) + 4
  }
  y += 8
  pdf.font('Helvetica-Bold')
  for (const total of statement.totals) {
    pdf.text(`Month's change (${total.currency})`, COLUMNS.description, y)
    amount(total.pendingMinor, total.currency, COLUMNS.pending, y)
    amount(total.availableMinor, total.currency, COLUMNS.available, y)
    amount(total.paidOutMinor, total.currency, COLUMNS.paidOut, y)
    y += 16
  }
  pdf.end()
  return done
}
