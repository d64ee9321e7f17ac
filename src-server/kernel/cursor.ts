// Opaque page cursors (the REST API's `cursor` / `next_cursor`, decision 0060): a keyset's values as base64url JSON.
// A cursor this server did not give is refused as an invalid request.
import { sql } from 'kysely'
import { DomainError } from './errors.ts'

export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url')
}

/**
 * What a cursor part may be: a number (a page or a position: a non-negative safe integer), a string (an id without
 * NUL, which PostgreSQL's text refuses), a uuid, or a time as the database prints it (`column::text`).
 */
export type CursorPart = 'string' | 'number' | 'uuid' | 'time'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DB_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-](\d{2})(:[0-5]\d){0,2}$/

/** A time the database could have printed: every field in range, so casting it back never fails. */
function isDbTime(value: string): boolean {
  const match = DB_TIME.exec(value)
  if (!match) return false
  const [year, month, day, hour, minute, second, , offset] = match.slice(1).map(Number) as number[]
  const daysInMonth = new Date(Date.UTC(year as number, month as number, 0)).getUTCDate()
  return (
    (year as number) >= 1 &&
    (month as number) >= 1 &&
    (month as number) <= 12 &&
    (day as number) >= 1 &&
    (day as number) <= daysInMonth &&
    (hour as number) <= 23 &&
    (minute as number) <= 59 &&
    (second as number) <= 59 &&
    (offset as number) <= 15
  )
}

function isPart(value: unknown, shape: CursorPart): boolean {
  if (shape === 'number') return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
  if (typeof value !== 'string') return false
  if (shape === 'uuid') return UUID.test(value)
  if (shape === 'time') return isDbTime(value)
  return !value.includes('\u0000')
}

/** The cursor's parts, each of the given shape; null without a cursor; a 400 invalid_request for anything else. */
export function decodeCursor(cursor: string | undefined, shape: CursorPart[]): (string | number)[] | null {
  if (!cursor) return null
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (
      Array.isArray(parts) &&
      parts.length === shape.length &&
      parts.every((p, i) => isPart(p, shape[i] as CursorPart))
    ) {
      return parts
    }
  } catch {}
  throw new DomainError('invalid', 'This cursor is not one this API gave', { cause: { code: 'invalid_request' } })
}

/**
 * The rows after a (time, id) keyset position, oldest first: a later time, or the same time and a greater id. `at` is
 * the time as the database printed it (`column::text`), so no microsecond is lost on the way through a cursor.
 */
export function afterKeyset(timeColumn: string, idColumn: string, after: { at: string; id: string }) {
  const time = sql.ref(timeColumn)
  return sql<boolean>`(${time} > ${after.at}::timestamptz or (${time} = ${after.at}::timestamptz and ${sql.ref(idColumn)} > ${after.id}))`
}
