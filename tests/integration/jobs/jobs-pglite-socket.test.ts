// The job queue reaches the embedded database over a wire-protocol socket on the same PGlite instance, which
// has one session. These tests prove a statement from the socket never runs inside an app transaction that is
// open on the instance (Kysely's PGliteDialect), nor an app query inside the socket's own transaction.
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type PgliteSocket, servePgliteSocket } from '../../../src-server/jobs/pglite-socket.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'

let database: TestDatabase
let socket: PgliteSocket
let client: pg.Client

const WAIT_MS = 300

/** Resolves to the value, or to 'still waiting' if it takes longer than WAIT_MS. */
function settledSoon<T>(promise: Promise<T>): Promise<T | 'still waiting'> {
  return Promise.race([promise, new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), WAIT_MS))])
}

function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

const embedded = inject('testDb').kind === 'pglite'

describe.runIf(embedded)('the job queue socket over PGlite', () => {
  beforeAll(async () => {
    database = await createTestDatabase()
    await sql`create table socket_probe (id int)`.execute(database.db)
    socket = await servePgliteSocket(database.pglite!)
    client = new pg.Client({ connectionString: socket.connectionString })
    await client.connect()
  })
  afterAll(async () => {
    await client?.end()
    await socket?.stop()
    await database?.close()
  })

  it('runs a socket statement only after an open app transaction ends, never inside it', async () => {
    const { open, opened } = gate()
    const appTransaction = database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into socket_probe values (1)`.execute(trx)
        await opened
        throw new Error('roll back')
      })
      .catch(() => 'rolled back')
    await new Promise((resolve) => setTimeout(resolve, 50))

    const fromSocket = client.query<{ n: number; xact: string | null }>(
      'select count(*)::int as n, pg_current_xact_id_if_assigned()::text as xact from socket_probe',
    )
    expect(await settledSoon(fromSocket)).toBe('still waiting')
    open()
    expect(await appTransaction).toBe('rolled back')
    // It ran in a transaction of its own: it neither saw the uncommitted row nor shared the app's transaction id.
    expect((await fromSocket).rows[0]).toEqual({ n: 0, xact: null })
  })

  it('runs an app query only after a transaction opened over the socket ends', async () => {
    await client.query('begin')
    await client.query('insert into socket_probe values (2)')
    const appQuery = sql<{ n: number }>`select count(*)::int as n from socket_probe`.execute(database.db)
    expect(await settledSoon(appQuery)).toBe('still waiting')
    await client.query('rollback')
    expect((await appQuery).rows[0]).toEqual({ n: 0 })
  })

  it('rolls back and frees the database when a client leaves in the middle of a transaction', async () => {
    const leaving = new pg.Client({ connectionString: socket.connectionString })
    await client.end() // one connection at a time
    await leaving.connect()
    await leaving.query('begin')
    await leaving.query('insert into socket_probe values (3)')
    await leaving.end()
    const after = await settledSoon(
      sql<{ n: number }>`select count(*)::int as n from socket_probe`.execute(database.db),
    )
    expect(after).toEqual(expect.objectContaining({ rows: [{ n: 0 }] }))
    client = new pg.Client({ connectionString: socket.connectionString })
    await client.connect()
  })

  it('keeps serving both sides after a statement fails on the socket', async () => {
    await expect(client.query('select 1 / 0')).rejects.toThrow('division by zero')
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows).toEqual([{ one: 1 }])
    expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }])
  })
})
