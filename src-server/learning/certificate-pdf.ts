// A certificate as an A4 landscape PDF, drawn with PDFKit (already the invoices' renderer) in Liberation Sans, a
// TrueType font committed beside this file (decision 0025): PDFKit embeds only the glyphs used, so names and titles in
// any Latin, Greek or Cyrillic script print as written (the standard PDF fonts know only WinAnsi).
import { fileURLToPath } from 'node:url'
import { formatDate } from '../../src-shared/dates.ts'

// The build copies ./fonts beside the compiled file (scripts/copy-seed-media.mjs).
const FONT_REGULAR = fileURLToPath(new URL('./fonts/LiberationSans-Regular.ttf', import.meta.url))
const FONT_BOLD = fileURLToPath(new URL('./fonts/LiberationSans-Bold.ttf', import.meta.url))

const INK = '#1c2433'
const MUTED = '#616b80'
const ACCENT = '#2663eb'
const REVOKED = '#bf1a1a'

/** What the PDF prints (flows/certificates.ts's certificate view has it). */
export interface PrintedCertificate {
  id: string
  learnerName: string
  courseTitle: string
  instructorName: string
  issuedAt: string
  status: 'verified' | 'revoked'
  url: string
  /** The final grade of a course with quizzes (issue 33), else null. */
  gradePercent: number | null
  /** A white-labelled school's name and colour (decision 0063); SkillForge's when null. */
  issuer?: { name: string; color: string } | null
}

export async function certificatePdf(view: PrintedCertificate): Promise<Buffer> {
  // Loaded on first use: only PDF downloads need PDFKit (decision 0029).
  const { default: PDFDocument } = await import('pdfkit')
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 0,
    info: { Title: `Certificate of Completion: ${view.courseTitle}`, Author: view.issuer?.name ?? 'SkillForge' },
  })
  pdf.registerFont('regular', FONT_REGULAR)
  pdf.registerFont('bold', FONT_BOLD)
  const chunks: Buffer[] = []
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
  })
  const { width, height } = pdf.page
  const accent = view.issuer?.color ?? ACCENT
  pdf
    .lineWidth(3)
    .strokeColor(accent)
    .rect(24, 24, width - 48, height - 48)
    .stroke()

  /** One line centred at `top` (from the top edge), shrunk to fit the width. */
  const centred = (text: string, top: number, size: number, font = 'regular', color = INK) => {
    const line = text.normalize('NFC')
    pdf.font(font)
    let fontSize = size
    while (pdf.fontSize(fontSize).widthOfString(line) > width - 120 && fontSize > 8) fontSize -= 1
    const x = (width - pdf.widthOfString(line)) / 2
    pdf.fillColor(color).text(line, x, top, { lineBreak: false })
  }
  centred(view.issuer?.name ?? 'SkillForge', 70, 20, 'bold', accent)
  centred('Certificate of Completion', 120, 34, 'bold')
  centred('This certifies that', 185, 14, 'regular', MUTED)
  centred(view.learnerName, 220, 30, 'bold')
  centred('has completed the course', 275, 14, 'regular', MUTED)
  centred(view.courseTitle, 310, 22, 'bold')
  centred(`Instructor: ${view.instructorName}`, 355, 13)
  centred(`Completed on ${formatDate(view.issuedAt)}`, 378, 13)
  if (view.gradePercent !== null) centred(`Final grade: ${view.gradePercent} %`, 401, 13, 'bold')
  const verified = view.status === 'verified'
  centred(verified ? 'Verified' : 'Revoked', height - 125, 14, 'bold', verified ? accent : REVOKED)
  centred(`Certificate ID: ${view.id}`, height - 98, 10, 'regular', MUTED)
  centred(view.url, height - 80, 10, 'regular', MUTED)
  pdf.end()
  return done
}
