// PostgreSQL dropping connections (what `pg_ctl stop -m fast` does to every backend: 57P01): a lost connection fails
// the request that used it, never the process. Terminating our own test database's backends stands in for the
// stop; scripts/chaos-postgres.ts does the real thing against a private cluster. PostgreSQL only.
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { DatabaseHandle } from '../../../src-server/kernel/db.ts'
import { isDatabaseUnavailable } from '../../../src-server/kernel/db-unavailable.ts'
import { createTestDatabase } from '../../support/db.ts'
import { type FullServer, startFullServer } from '../../support/full-server.ts'
import { databaseUrlFor } from '../../support/postgres-admin.ts'

const config = inject('testDb')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.runIf(config.kind === 'postgres')('PostgreSQL dropping connections', () => {
  let database: DatabaseHandle
  let killer: pg.Client

  beforeAll(async () => {
    database = await createTestDatabase()
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db)
    const adminUrl = config.kind === 'postgres' ? config.adminUrl : ''
    killer = new pg.Client({ connectionString: databaseUrlFor(adminUrl, rows[0]!.name) })
    await killer.connect()
  })
  afterAll(async () => {
    await killer.end()
    await database.close()
  })

  /** Ends every other connection to this test database, as a fast shutdown would (57P01). */
  const terminateBackends = () =>
    killer.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    )

  it('a client losing its connection inside a transaction fails that transaction, not the process', async () => {
    const failure = await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx)
        // The client is checked out and idle between statements when its backend goes: 'error' is emitted on it.
        await terminateBackends()
        await sleep(300)
        await sql`select 1`.execute(trx)
      })
      .catch((error: unknown) => error)
    expect(isDatabaseUnavailable(failure)).toBe(true)
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db)
    expect(rows).toEqual([{ one: 1 }])
  })

  it('answers 200 or 503 while backends are killed under load, and serves again afterwards', async () => {
    const app: FullServer = await startFullServer(database.db)
    const statuses = new Map<number, number>()
    let running = true
    const load = async (_: unknown, index: number) => {
      const path = index % 2 ? 'catalog.search?input={}' : 'catalog.categories'
      while (running) {
        const response = await fetch(`${app.baseUrl}/trpc/${path}`)
        await response.arrayBuffer()
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      }
    }
    const clients = Array.from({ length: 4 }, load)
    for (let round = 0; round < 10; round++) {
      await sleep(50)
      await terminateBackends()
    }
    running = false
    await Promise.all(clients)
    // The pool may still hand out a client whose end it has not yet heard of: recovery takes a moment, not more.
    let recovered = 0
    for (const deadline = Date.now() + 5000; recovered !== 200 && Date.now() < deadline; await sleep(100)) {
      recovered = (await fetch(`${app.baseUrl}/trpc/catalog.categories`)).status
    }
    await app.stop()
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([])
    expect(statuses.get(503)).toBeGreaterThan(0)
    expect(recovered).toBe(200)
  })
})
