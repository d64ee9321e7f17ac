// One writer per resumable upload across web nodes (decision 0113): each node builds its own tus server, so the lock
// must live in the shared database, not in a node's memory. Node B asking for an upload node A is writing makes A
// let go first; B writes only after A unlocked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../../src-server/kernel/db.ts'
import { databaseTusLocker, type TusLockTiming } from '../../../src-server/storage/tus-lock.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'

const FAST: TusLockTiming = { leaseMs: 2_000, renewMs: 50, retryMs: 20, acquireTimeoutMs: 5_000 }

let database: TestDatabase
let second: DatabaseHandle | null = null

beforeAll(async () => {
  database = await createTestDatabase()
  // On PostgreSQL node B has its own connections, as a second process would.
  if (database.url) second = await openDatabase({ databaseUrl: database.url, poolSize: 2 })
})

afterAll(async () => {
  await second?.close()
  await database?.close()
})

describe('tus upload lock shared by the nodes', () => {
  it('a PATCH on node B waits until node A, writing the same upload, lets go', async () => {
    const nodeA = databaseTusLocker(database.db, FAST)
    const nodeB = databaseTusLocker(second?.db ?? database.db, FAST)
    const events: string[] = []
    const id = 'a'.repeat(32)

    const onA = nodeA.newLock(id)
    await onA.lock(new AbortController().signal, async () => {
      events.push('A asked to let go')
      // tus ends A's request; its handler then unlocks.
      await new Promise((resolve) => setTimeout(resolve, 100))
      await onA.unlock()
      events.push('A unlocked')
    })

    const onB = nodeB.newLock(id)
    await onB.lock(new AbortController().signal, async () => {})
    events.push('B locked')
    await onB.unlock()

    expect(events).toEqual(['A asked to let go', 'A unlocked', 'B locked'])
    const left = await database.db.selectFrom('tus_upload_locks').select('upload_id').execute()
    expect(left).toEqual([])
  })

  it('a lock whose node died is free once its lease ran out', async () => {
    const id = 'b'.repeat(32)
    // A node that took the lock and died: its row stays with a lease in the past.
    await database.db
      .insertInto('tus_upload_locks')
      .values({ upload_id: id, holder: 'dead-node', expires_at: new Date(Date.now() - 1_000) })
      .execute()
    const onB = databaseTusLocker(second?.db ?? database.db, FAST).newLock(id)
    await onB.lock(new AbortController().signal, async () => {})
    const row = await database.db
      .selectFrom('tus_upload_locks')
      .select('holder')
      .where('upload_id', '=', id)
      .executeTakeFirst()
    expect(row?.holder).not.toBe('dead-node')
    await onB.unlock()
  })
})
