// The certificate PDF (learning/certificate-pdf.ts): one A4 landscape page, with a TrueType font embedded so names
// outside Latin-1 print as written: every character of the name and title is in the embedded font's Unicode map.
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { CertificateView } from '../../src-server/flows/certificates.ts'
import { certificatePdf } from '../../src-server/learning/certificate-pdf.ts'

const view = (overrides: Partial<CertificateView>): CertificateView => ({
  id: '0b6c1c0e-2f7e-4a57-9d1e-3c1f2b9a8e11',
  courseId: 'modern-react-typescript',
  learnerName: 'Ada Lovelace',
  courseTitle: 'Modern React',
  instructorName: 'Sarah Chen',
  issuedAt: '2026-11-20T10:00:00.000Z',
  status: 'verified',
  url: 'https://shop.example/certificates/0b6c1c0e-2f7e-4a57-9d1e-3c1f2b9a8e11',
  pdfUrl: '/api/certificates/0b6c1c0e-2f7e-4a57-9d1e-3c1f2b9a8e11/pdf',
  linkedInUrl: null,
  gradePercent: null,
  issuer: null,
  ...overrides,
})

/** The PDF's streams, inflated where compressed. */
function streams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1')
  const found: string[] = []
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length
    const end = text.indexOf('endstream', start)
    const raw = pdf.subarray(start, end)
    try {
      found.push(inflateSync(raw).toString('latin1'))
    } catch {
      found.push(raw.toString('latin1'))
    }
  }
  return found
}

/** Every character the embedded fonts' ToUnicode maps name. */
function mappedCharacters(pdf: Buffer): Set<string> {
  const characters = new Set<string>()
  for (const stream of streams(pdf).filter((s) => s.includes('begincmap'))) {
    for (const [, hex] of stream.matchAll(/<([0-9a-fA-F]{4,})>/g)) {
      const units = (hex ?? '').match(/.{4}/g)?.map((unit) => Number.parseInt(unit, 16)) ?? []
      characters.add(String.fromCharCode(...units))
    }
  }
  return characters
}

describe('certificatePdf', () => {
  it('embeds a TrueType font whose map holds every character of a non-Latin-1 name and title', async () => {
    const learnerName = 'Łukasz Żółć-Дмитриев Ελένη'
    const courseTitle = 'Основы SQL: Δεδομένα & Šťastné čísla'
    const pdf = await certificatePdf(view({ learnerName, courseTitle }))
    const text = pdf.toString('latin1')
    expect(text.startsWith('%PDF-')).toBe(true)
    // A subset of Liberation Sans is embedded (FontFile2: TrueType), not a standard WinAnsi font.
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+LiberationSans-Bold/)
    expect(text).toContain('/FontFile2')
    expect(text).not.toContain('/Helvetica')
    const mapped = mappedCharacters(pdf)
    const missing = [...`${learnerName}${courseTitle}`.replace(/\s/g, '')].filter((c) => !mapped.has(c))
    expect(missing).toEqual([])
  })

  it('prints the final grade of a course with quizzes, and no grade line without one', async () => {
    expect(mappedCharacters(await certificatePdf(view({ gradePercent: 87 }))).has('%')).toBe(true)
    expect(mappedCharacters(await certificatePdf(view({}))).has('%')).toBe(false)
  })

  it('is one A4 landscape page', async () => {
    const text = (await certificatePdf(view({}))).toString('latin1')
    expect(text.match(/\/Type \/Page\b/g)).toHaveLength(1)
    expect(text).toMatch(/\/MediaBox \[0 0 841\.89 595\.28\]/)
  })
})
