// The rollups' bulk insert: rows written 1,000 per statement (a day of a million courses stays under PostgreSQL's
// 65,535 bind parameters per statement and keeps each statement's memory small).
import type { Insertable } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'

export const INSERT_CHUNK = 1000

export async function insertInChunks<T extends keyof Database & string>(
  db: DB,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (let index = 0; index < rows.length; index += INSERT_CHUNK) {
    await db
      .insertInto(table)
      .values(rows.slice(index, index + INSERT_CHUNK) as never)
      .execute()
  }
}
