// A certificate as an A4 landscape PDF, drawn with pdf-lib (decision 0016) using its standard fonts.
import type { CertificateView } from './certificates.ts'

const A4_LANDSCAPE: [number, number] = [841.89, 595.28]

/** Standard PDF fonts only encode WinAnsi: other characters become '?' rather than failing the download. */
const winAnsi = (text: string) => text.normalize('NFC').replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?')

export async function certificatePdf(view: CertificateView): Promise<Uint8Array> {
  // Loaded on first use: only certificate downloads need pdf-lib (decision 0029).
  const { PDFDocument, rgb, StandardFonts } = await import('pdf-lib')
  const INK = rgb(0.11, 0.14, 0.2)
  const MUTED = rgb(0.38, 0.42, 0.5)
  const ACCENT = rgb(0.15, 0.39, 0.92)
  const pdf = await PDFDocument.create()
  pdf.setTitle(`Certificate of Completion: ${winAnsi(view.courseTitle)}`)
  pdf.setAuthor('SkillForge')
  const page = pdf.addPage(A4_LANDSCAPE)
  const [width, height] = A4_LANDSCAPE
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: ACCENT, borderWidth: 3 })

  const centred = (text: string, y: number, size: number, font = regular, color = INK) => {
    const safe = winAnsi(text)
    let fontSize = size
    while (font.widthOfTextAtSize(safe, fontSize) > width - 120 && fontSize > 8) fontSize -= 1
    page.drawText(safe, { x: (width - font.widthOfTextAtSize(safe, fontSize)) / 2, y, size: fontSize, font, color })
  }
  centred('SkillForge', height - 90, 20, bold, ACCENT)
  centred('Certificate of Completion', height - 150, 34, bold)
  centred('This certifies that', height - 200, 14, regular, MUTED)
  centred(view.learnerName, height - 245, 30, bold)
  centred('has completed the course', height - 285, 14, regular, MUTED)
  centred(view.courseTitle, height - 325, 22, bold)
  centred(`Instructor: ${view.instructorName}`, height - 360, 13)
  const date = new Date(view.issuedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })
  centred(`Completed on ${date}`, height - 385, 13)
  centred(
    view.status === 'verified' ? 'Verified' : 'Revoked',
    110,
    14,
    bold,
    view.status === 'verified' ? ACCENT : rgb(0.75, 0.1, 0.1),
  )
  centred(`Certificate ID: ${view.id}`, 85, 10, regular, MUTED)
  centred(view.url, 68, 10, regular, MUTED)
  return pdf.save()
}
