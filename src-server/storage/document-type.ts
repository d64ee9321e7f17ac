// Private documents (service-order files, attachments of messages to instructors): a file's type is judged by its
// bytes (PDF, PNG, JPEG, GIF, WebP, Word/Excel/PowerPoint old and new), and its name is cleaned before it is shown.
import { detectImageType } from './image.ts'

const OFFICE_TYPES: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
}

/** The type of a file by its content; the name's extension only tells which office format a container is. */
export function detectDocumentType(bytes: Buffer, fileName: string): { mime: string; ext: string } | null {
  const image = detectImageType(bytes)
  if (image) return image
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b)
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return { mime: 'application/pdf', ext: 'pdf' }
  const ext = /\.([a-z]{3,4})$/i.exec(fileName)?.[1]?.toLowerCase() ?? ''
  // Office Open XML: a ZIP whose directory lists [Content_Types].xml.
  if (starts(0x50, 0x4b, 0x03, 0x04) && bytes.includes('[Content_Types].xml') && ['docx', 'xlsx', 'pptx'].includes(ext))
    return { mime: OFFICE_TYPES[ext] as string, ext }
  // Legacy Office: an OLE compound file.
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1) && ['doc', 'xls', 'ppt'].includes(ext))
    return { mime: OFFICE_TYPES[ext] as string, ext }
  return null
}

/**
 * A file's name as people see it in lists and sent in Content-Disposition: no path, each run of characters other
 * than letters, digits, space and `.()-` made one `_`, at most 120 characters, `fallback` when nothing is left.
 * The one rule for every uploaded file (documents, videos, lesson and application files).
 */
export function safeFileName(name: string | null | undefined, fallback: string): string {
  const base = ((name ?? '').split(/[\\/]/).pop() ?? '')
    .replace(/[^\w .()-]+/g, '_')
    .slice(0, 120)
    .trim()
  return base || fallback
}

/** A document's safe name, `file.<ext>` when nothing is left. */
export const cleanFileName = (name: string, ext: string): string => safeFileName(name, `file.${ext}`)
