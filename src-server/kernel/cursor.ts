// Opaque page cursors (the REST API's `cursor` / `next_cursor`, decision 0060): a keyset's values as base64url JSON.
// A cursor this server did not give is refused as an invalid request.
import { sql } from 'kysely'
import { DomainError } from './errors.ts'
import { isUuid } from './uuid.ts'

export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url')
}

/**
 * What a cursor part may be: a number (a page or a position: a non-negative safe integer), a string (an id without
 * NUL, which PostgreSQL's text refuses), a uuid, a time as the database prints it (`column::text`), or a transaction
 * id (xid8 as decimal text: up to 2^64 - 1, beyond a JavaScript number).
 */
export type CursorPart = 'string' | 'number' | 'uuid' | 'time' | 'xid'

const MAX_XID8 = 2n ** 64n - 1n

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
  if (shape === 'uuid') return isUuid(value)
  if (shape === 'time') return isDbTime(value)
  if (shape === 'xid') return /^\d{1,20}$/.test(value) && BigInt(value) <= MAX_XID8
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

/**
 * Rows written by a transaction that has ended (decision 0094): `xidColumn` (xid8, the writer's pg_current_xact_id())
 * below the oldest transaction id still running in the statement's snapshot. A transaction still open may have
 * stamped an earlier time than rows already committed; none of its rows, nor any later transaction's, can ever get an
 * xid below this horizon, so a keyset over (xid, …) read below it never has a row appear behind a cursor it gave.
 */
export function committedBefore(xidColumn: string) {
  return sql<boolean>`${sql.ref(xidColumn)} < pg_snapshot_xmin(pg_current_snapshot())`
}

/** The rows after a (xid, time, id) keyset position, in that order (xid8 as text, the time as the database prints it). */
export function afterXidKeyset(
  columns: { xid: string; time: string; id: string },
  after: { xid: string; at: string; id: string },
) {
  return sql<boolean>`((${sql.ref(columns.xid)}, ${sql.ref(columns.time)}, ${sql.ref(columns.id)}) >
    (${after.xid}::xid8, ${after.at}::timestamptz, ${after.id}::uuid))`
}

/** The xid of every row written before migration 2026_12_12_0300_api_sync_commit_horizon (committed, sorted first). */
export const LEGACY_XID = '1'

/**
 * A sync list's cursor: (xid, time, id), or a cursor given before decision 0094 — (time, id) — which resumes among the
 * rows older than it, as it did (they all carry LEGACY_XID), then every row since. Null without a cursor.
 */
export function decodeSyncCursor(cursor: string | undefined): { xid: string; at: string; id: string } | null {
  if (!cursor) return null
  let parts: (string | number)[] | null
  try {
    parts = decodeCursor(cursor, ['xid', 'time', 'uuid'])
  } catch {
    const legacy = decodeCursor(cursor, ['time', 'uuid']) as string[]
    return { xid: LEGACY_XID, at: legacy[0] as string, id: legacy[1] as string }
  }
  const [xid, at, id] = parts as string[]
  return { xid: xid as string, at: at as string, id: id as string }
}
