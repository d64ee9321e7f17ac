// Reading back a PDF that PDFKit wrote with its standard fonts (invoices, credit notes): its Info dictionary, its
// pages' sizes and the text each page draws, where and in which font. A small exact reader of what PDFKit writes,
// not a general PDF parser: objects are found through the xref table, streams by their /Length.
import { inflateSync } from 'node:zlib'

/** One text() fragment as drawn: a TJ array's strings joined, at its text matrix's x and y (y grows upward). */
export interface PdfRun {
  font: string
  size: number
  x: number
  y: number
  text: string
}

export interface PdfPage {
  width: number
  height: number
  runs: PdfRun[]
}

export interface ReadPdf {
  /** The Info dictionary's strings (Title, Author, Subject, Producer, …), decoded. */
  info: Record<string, string>
  pages: PdfPage[]
}

interface PdfObject {
  body: string
  stream?: Buffer
}

// The standard 14 fonts are written in WinAnsiEncoding (Windows-1252: £ is A3, — is 97).
const winAnsi = new TextDecoder('windows-1252')

function objectsOf(bytes: Buffer): { objects: Map<number, PdfObject>; trailer: string } {
  const raw = bytes.toString('latin1')
  const xrefAt = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(raw)?.[1])
  const xref = /^xref\s+0 (\d+)\s+/.exec(raw.slice(xrefAt))
  if (!xref) throw new Error('no xref table')
  const entries = raw.slice(xrefAt + xref[0].length).split('\n', Number(xref[1]))
  const objects = new Map<number, PdfObject>()
  entries.forEach((entry, number) => {
    const [offset, , use] = entry.trim().split(' ')
    if (use !== 'n') return
    const header = new RegExp(`^${number} 0 obj\\s+`).exec(raw.slice(Number(offset)))
    if (!header) throw new Error(`object ${number} is not at its offset`)
    const start = Number(offset) + header[0].length
    const streamAt = raw.indexOf('\nstream\n', start)
    const endAt = raw.indexOf('\nendobj', start)
    if (streamAt === -1 || streamAt > endAt) {
      objects.set(number, { body: raw.slice(start, endAt) })
      return
    }
    const body = raw.slice(start, streamAt)
    const length = Number(/\/Length (\d+)/.exec(body)?.[1])
    const data = bytes.subarray(streamAt + '\nstream\n'.length, streamAt + '\nstream\n'.length + length)
    objects.set(number, { body, stream: body.includes('/FlateDecode') ? inflateSync(data) : data })
  })
  const trailer = /trailer\s+(<<[\s\S]*?>>)\s+startxref/.exec(raw)?.[1]
  if (!trailer) throw new Error('no trailer')
  return { objects, trailer }
}

const refOf = (dict: string, key: string) => {
  const match = new RegExp(`/${key} (\\d+) 0 R`).exec(dict)
  if (!match) throw new Error(`no /${key} reference in ${dict}`)
  return Number(match[1])
}

const LITERAL_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' }

/** The bytes of a literal string's body: \n and the like, \ddd in octal, a backslash before a line break joins. */
function unescapeLiteral(body: string): string {
  return body.replace(/\\([0-7]{1,3}|\r\n|[\s\S])/g, (_, escaped: string) => {
    if (/^[0-7]/.test(escaped)) return String.fromCharCode(Number.parseInt(escaped, 8))
    if (escaped === '\n' || escaped === '\r' || escaped === '\r\n') return ''
    return LITERAL_ESCAPES[escaped] ?? escaped
  })
}

/** A PDF string object, literal `(…)` or hex `<…>`, as text: UTF-16BE after a FE FF mark, else byte by byte. */
function decodeString(written: string): string {
  let bytes: Buffer
  if (written.startsWith('<') && written.endsWith('>')) {
    bytes = Buffer.from(written.slice(1, -1).replace(/\s/g, ''), 'hex')
  } else if (written.startsWith('(') && written.endsWith(')')) {
    bytes = Buffer.from(unescapeLiteral(written.slice(1, -1)), 'latin1')
  } else {
    throw new Error(`not a string: ${written}`)
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  return bytes.toString('latin1')
}

function runsOf(content: string, fonts: Map<string, string>): PdfRun[] {
  const runs: PdfRun[] = []
  for (const [, block] of content.matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
    const matrix = /(-?[\d.]+) (-?[\d.]+) Tm/.exec(block!)
    const font = /\/(\S+) ([\d.]+) Tf/.exec(block!)
    if (!matrix || !font) throw new Error(`a text block without Tm or Tf: ${block}`)
    for (const [, array] of block!.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...array!.matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => part[1]).join('')
      runs.push({
        font: fonts.get(font[1]!) ?? font[1]!,
        size: Number(font[2]),
        x: Number(matrix[1]),
        y: Number(matrix[2]),
        text: winAnsi.decode(Buffer.from(hex, 'hex')),
      })
    }
  }
  return runs
}

export function readPdf(bytes: Buffer): ReadPdf {
  const { objects, trailer } = objectsOf(bytes)
  const object = (number: number) => {
    const found = objects.get(number)
    if (!found) throw new Error(`no object ${number}`)
    return found
  }
  const info: Record<string, string> = {}
  for (const [, key, ref] of object(refOf(trailer, 'Info')).body.matchAll(/\/(\w+) (\d+) 0 R/g)) {
    info[key!] = decodeString(object(Number(ref)).body.trim())
  }
  const pagesRef = refOf(object(refOf(trailer, 'Root')).body, 'Pages')
  const kids = /\/Kids \[([^\]]*)\]/.exec(object(pagesRef).body)?.[1] ?? ''
  const pages = [...kids.matchAll(/(\d+) 0 R/g)].map(([, ref]) => {
    const page = object(Number(ref)).body
    const [, , width, height] = (/\/MediaBox \[([^\]]*)\]/.exec(page)?.[1] ?? '').split(' ').map(Number)
    const fontTable = /\/Font <<([^>]*)>>/.exec(object(refOf(page, 'Resources')).body)?.[1] ?? ''
    const fonts = new Map(
      [...fontTable.matchAll(/\/(\S+) (\d+) 0 R/g)].map(([, name, fontRef]) => [
        name!,
        /\/BaseFont \/(\S+)/.exec(object(Number(fontRef)).body)?.[1] ?? name!,
      ]),
    )
    const content = object(refOf(page, 'Contents')).stream?.toString('latin1') ?? ''
    return { width: width!, height: height!, runs: runsOf(content, fonts) }
  })
  return { info, pages }
}

/** The text a PDFKit document draws, one line per text() fragment, page after page. */
export function pdfText(bytes: Buffer): string {
  return readPdf(bytes)
    .pages.flatMap((page) => page.runs.map((run) => run.text))
    .join('\n')
}
