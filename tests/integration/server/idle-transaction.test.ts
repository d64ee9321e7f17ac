// A transaction left idle between two statements (a request stuck on something outside the database, a bug that
// forgets to commit) is ended by PostgreSQL after the pool's idle-in-transaction timeout: it no longer holds its locks
// or the API's sync horizon (decision 0094), and the pool serves the next query on a new connection. PostgreSQL only.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type DatabaseHandle, DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, openDatabase } from '../../../src-server/kernel/db.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import '../../support/provided.ts'

const onPostgres = inject('testDb').kind === 'postgres'

describe.runIf(onPostgres)('a transaction left idle (PostgreSQL)', () => {
  let database: TestDatabase
  let short: DatabaseHandle
  let standard: DatabaseHandle

  beforeAll(async () => {
    database = await createTestDatabase()
    // One connection: the query after the ended transaction can only answer on a new one.
    short = await openDatabase({ databaseUrl: database.url!, poolSize: 1, idleInTransactionTimeoutMs: 300 })
    standard = await openDatabase({ databaseUrl: database.url!, poolSize: 1 })
  })
  afterAll(async () => {
    await short?.close()
    await standard?.close()
    await database?.close()
  })

  const setting = async (handle: DatabaseHandle) =>
    (
      await sql<{
        ms: string
      }>`select setting as ms from pg_settings where name = 'idle_in_transaction_session_timeout'`.execute(handle.db)
    ).rows[0]?.ms

  it('sets the timeout on every session the pool opens', async () => {
    expect(await setting(standard)).toBe(String(DB_IDLE_IN_TRANSACTION_TIMEOUT_MS))
    expect(await setting(short)).toBe('300')
  })

  it('ends an idle transaction, frees its row lock, and answers the next query on a new connection', async () => {
    await sql`create table idle_probe (id int primary key, n int not null)`.execute(standard.db)
    await sql`insert into idle_probe values (1, 0)`.execute(standard.db)
    const stuck = short.db.transaction().execute(async (trx) => {
      await sql`update idle_probe set n = 1 where id = 1`.execute(trx)
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await sql`select 1`.execute(trx)
    })
    await expect(stuck).rejects.toThrow(/idle-in-transaction timeout|connection error|Connection terminated/)
    // The lock went with the session and its update was rolled back: another session writes the row at once.
    await sql`set lock_timeout = '2s'`.execute(standard.db)
    await sql`update idle_probe set n = 2 where id = 1`.execute(standard.db)
    const row = await sql<{ n: number }>`select n from idle_probe where id = 1`.execute(short.db)
    expect(row.rows[0]?.n).toBe(2)
  })
})
