// Opaque page cursors (the REST API's `cursor` / `next_cursor`, decision 0060): a keyset's values as base64url JSON.
// A cursor this server did not give is refused as an invalid request.
import { sql } from 'kysely'
import { DomainError } from './errors.ts'

export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url')
}

/** The cursor's parts, each of the given type; null without a cursor; a 400 invalid_request for anything else. */
export function decodeCursor(cursor: string | undefined, shape: ('string' | 'number')[]): (string | number)[] | null {
  if (!cursor) return null
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(parts) && parts.length === shape.length && parts.every((p, i) => typeof p === shape[i])) {
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
