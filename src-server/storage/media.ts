// Judges lesson uploads by their bytes: videos must be MP4/MOV (an ISO-BMFF 'ftyp' box) or WebM/Matroska (EBML
// header); attachments must be a PDF, a ZIP (also .docx/.xlsx/.pptx), an image, or plain UTF-8 text.
import { detectImageType } from './image.ts'

export type MediaType = { mime: string; ext: string }

export function detectVideoType(bytes: Uint8Array): MediaType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp') {
    return ascii(8, 10) === 'qt' ? { mime: 'video/quicktime', ext: 'mov' } : { mime: 'video/mp4', ext: 'mp4' }
  }
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return { mime: 'video/webm', ext: 'webm' }
  return null
}

export function detectAttachmentType(bytes: Uint8Array): MediaType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b)
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return { mime: 'application/pdf', ext: 'pdf' }
  if (starts(0x50, 0x4b, 0x03, 0x04)) return { mime: 'application/zip', ext: 'zip' }
  const image = detectImageType(bytes)
  if (image) return image
  try {
    // stream: a multi-byte character cut at the 64 kB mark is not an error.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 64 * 1024), { stream: true })
    // Text, not a binary with a lucky prefix: no NUL and no other control characters besides tab and line breaks.
    const control = [...text].some((c) => {
      const code = c.charCodeAt(0)
      return code < 0x20 && c !== '\t' && c !== '\n' && c !== '\r' && c !== '\f'
    })
    if (!control) return { mime: 'text/plain; charset=utf-8', ext: 'txt' }
  } catch {
    return null
  }
  return null
}
