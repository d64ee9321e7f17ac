// The HTTP Range header of media requests: one range of bytes ("bytes=0-499", "bytes=500-", "bytes=-500").
import type { ByteRange } from '../storage/storage.ts'

/** The range asked for, null for the whole file, or 'unsatisfiable' (the route answers 416). */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  // Several ranges or another unit: serve the whole file, as a server without range support would.
  if (!match) return null
  const [, first, last] = match
  if (first === '' && last === '') return null
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}
