// Concurrency tests run on PostgreSQL only. PGlite runs one query at a time, so a race test there passes even with
// its row lock or transaction removed (issue 19): it would prove nothing. With TEST_DATABASE_URL set (CI always
// sets it) the `postgres` project runs them; without it they are skipped, and the skip says why.
// docs/concurrency-proofs.md records each one failing with its lock removed.
import { type Kysely, sql } from 'kysely'
import { inject, it } from 'vitest'
import type { Database } from '../../db/types.ts'
import './provided.ts'

const onPostgres = inject('testDb').kind === 'postgres'
const reason = process.env.TEST_DATABASE_URL
  ? 'runs in the postgres project'
  : 'SKIPPED: needs PostgreSQL, set TEST_DATABASE_URL (PGlite runs one query at a time and cannot race)'

let warned = false
/** `it` for a test that races transactions: run on PostgreSQL, skipped with the reason elsewhere. Many
 * connections at once on a shared machine take a while, hence the longer default timeout. */
export function raceIt(name: string, fn: () => Promise<void>, timeout = 90_000) {
  if (onPostgres) return it(name, fn, timeout)
  if (!process.env.TEST_DATABASE_URL && !warned) {
    warned = true
    console.warn(`[race] ${reason}`)
  }
  return it.skip(`${name} [${reason}]`, fn)
}

/**
 * Makes a race certain instead of likely: another connection holds `table`'s row (`key`: its id, or the columns of
 * its primary key) locked while `racers` start, so each of them reaches the row before any can finish; then the row
 * is let go. Without a lock or a guarded UPDATE, every racer has read the row as it was and all of them win.
 */
export async function whileRowHeld<T>(
  db: Kysely<Database>,
  table: 'orders' | 'service_orders' | 'courses' | 'users' | 'lesson_progress',
  key: string | Record<string, string>,
  racers: () => Promise<T>,
  holdMs = 500,
): Promise<T> {
  const columns = Object.entries(typeof key === 'string' ? { id: key } : key)
  const where = sql.join(
    columns.map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
    sql` and `,
  )
  let started: Promise<T> | undefined
  await db.transaction().execute(async (trx) => {
    await sql`select 1 from ${sql.table(table)} where ${where} for update`.execute(trx)
    started = racers()
    await new Promise((resolve) => setTimeout(resolve, holdMs))
  })
  return started!
}
