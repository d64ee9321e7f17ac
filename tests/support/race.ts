// Concurrency tests run on PostgreSQL only. PGlite runs one query at a time, so a race test there passes even with
// its row lock or transaction removed (issue 19): it would prove nothing. With TEST_DATABASE_URL set (CI always
// sets it) the `postgres` project runs them; without it they are skipped, and the skip says why.
// docs/concurrency-proofs.md records each one failing with its lock removed.
import { type Kysely, sql, type Transaction } from 'kysely'
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

/** How long to hold: a fixed time, or until `waiters` other sessions of this database wait for a lock (then every
 * racer that must wait is waiting) or the racers have all finished (a racer that takes no lock never waits), at most
 * `maxMs`. */
export type Hold = number | { waiters: number; maxMs?: number }

/**
 * Makes a race certain instead of likely: another connection holds `table`'s row (`key`: its id, or the columns of
 * its primary key) locked while `racers` start, so each of them reaches the row before any can finish; then the row
 * is let go. Without a lock or a guarded UPDATE, every racer has read the row as it was and all of them win.
 */
export function whileRowHeld<T>(
  db: Kysely<Database>,
  table:
    | 'orders'
    | 'service_orders'
    | 'courses'
    | 'users'
    | 'lesson_progress'
    | 'cart_items'
    | 'earning_shares'
    | 'subscriptions'
    | 'subscription_invoices'
    | 'creator_payouts',
  key: string | Record<string, string>,
  racers: () => Promise<T>,
  hold: Hold = 500,
): Promise<T> {
  const columns = Object.entries(typeof key === 'string' ? { id: key } : key)
  const where = sql.join(
    columns.map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
    sql` and `,
  )
  return whileHeld(
    db,
    (trx) => sql`select 1 from ${sql.table(table)} where ${where} for update`.execute(trx),
    racers,
    hold,
  )
}

/**
 * Like whileRowHeld, with the holding transaction's work given: `change` runs in it (real product code, e.g. a cancel,
 * taking its row locks), `racers` start while it is still uncommitted, and it commits after `hold` (or, with `end`
 * 'rollback', is undone: a row it inserted held the racers back, then is gone). A racer that reads without a lock sees
 * the rows as they were before `change`; one that locks them waits and sees them after.
 */
export async function whileHeld<T>(
  db: Kysely<Database>,
  change: (trx: Transaction<Database>) => Promise<unknown>,
  racers: () => Promise<T>,
  hold: Hold = 500,
  end: 'commit' | 'rollback' = 'commit',
): Promise<T> {
  let started: Promise<T> | undefined
  const undo = new Error('whileHeld: rolled back')
  await db
    .transaction()
    .execute(async (trx) => {
      await change(trx)
      started = racers()
      if (typeof hold === 'number') await sleep(hold)
      else {
        let settled = false
        started.then(
          () => (settled = true),
          () => (settled = true),
        )
        const deadline = Date.now() + (hold.maxMs ?? 20_000)
        while (!settled && Date.now() < deadline && (await lockWaiters(trx)) < hold.waiters) await sleep(20)
      }
      if (end === 'rollback') throw undo
    })
    .catch((error) => {
      if (error !== undo) throw error
    })
  return started!
}

/** Sessions of this database waiting for a lock now (asked on the holding connection: the pool may be all taken). */
async function lockWaiters(trx: Transaction<Database>): Promise<number> {
  // pg_stat_activity keeps one snapshot per transaction unless cleared.
  await sql`select pg_stat_clear_snapshot()`.execute(trx)
  const { rows } = await sql<{ waiting: number }>`
    select count(*)::int as waiting from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(trx)
  return rows[0]!.waiting
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
