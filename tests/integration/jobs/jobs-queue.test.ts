// The job queue API on the real database (PGlite through its socket, and PostgreSQL): jobs enqueued in a caller's
// transaction exist only if it commits, failures are retried, and two nodes never run the same job twice.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type JobQueue, openJobQueue } from '../../../src-server/jobs/queue.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { captureLog, waitUntil } from '../../support/jobs.ts'

type TestJobs = { 'test.echo': { n: number } }
const queues = { 'test.echo': { retryLimit: 1, retryDelay: 1 } }

let database: TestDatabase
let queue: JobQueue<TestJobs>
const runs: { n: number; retryCount: number }[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  queue = await openJobQueue<TestJobs>({
    databaseUrl: database.url,
    pglite: database.pglite,
    queues,
    log: captureLog().log,
    role: 'worker',
  })
  await queue.work(
    'test.echo',
    async (job) => {
      runs.push({ n: job.data.n, retryCount: job.retryCount })
      if (job.data.n === 4 && job.retryCount === 0) throw new Error('first try fails')
    },
    { pollingIntervalSeconds: 0.5 },
  )
})
afterAll(async () => {
  await queue?.stop()
  await database?.close()
})

const ran = (n: number) => runs.filter((run) => run.n === n)

describe('the job queue', () => {
  it('creates a job enqueued in a transaction only when the transaction commits', async () => {
    await database.db.transaction().execute((trx) => queue.enqueue('test.echo', { n: 1 }, { trx }))
    await database.db
      .transaction()
      .execute(async (trx) => {
        await queue.enqueue('test.echo', { n: 2 }, { trx })
        throw new Error('roll back')
      })
      .catch(() => undefined)
    await queue.enqueue('test.echo', { n: 3 })

    await waitUntil(() => ran(1).length === 1 && ran(3).length === 1)
    const jobs = await sql<{
      n: number
    }>`select (data->>'n')::int as n from pgboss.job where name = 'test.echo'`.execute(database.db)
    expect(jobs.rows.map((row) => row.n).sort()).toEqual([1, 3])
    expect(ran(2)).toEqual([])
  })

  it('retries a job whose handler failed, with its retry count', async () => {
    await queue.enqueue('test.echo', { n: 4 })
    await waitUntil(() => ran(4).length === 2)
    expect(ran(4)).toEqual([
      { n: 4, retryCount: 0 },
      { n: 4, retryCount: 1 },
    ])
  })
})

describe('cron schedules', () => {
  it('are stored as the registry lists them, and removed when dropped from it', async () => {
    const stored = async () =>
      (await sql<{ name: string; cron: string }>`select name, cron from pgboss.schedule`.execute(database.db)).rows
    await queue.setSchedules([{ name: 'test.echo', cron: '*/5 * * * *', data: { n: 5 } }])
    expect(await stored()).toEqual([{ name: 'test.echo', cron: '*/5 * * * *' }])
    await queue.setSchedules([{ name: 'test.echo', cron: '0 3 * * *', data: { n: 5 } }])
    expect(await stored()).toEqual([{ name: 'test.echo', cron: '0 3 * * *' }])
    await queue.setSchedules([])
    expect(await stored()).toEqual([])
  })
})

describe.runIf(inject('testDb').kind === 'postgres')('several worker nodes', () => {
  it('share the jobs without running any twice', async () => {
    const seen: number[] = []
    const nodes = await Promise.all(
      [1, 2, 3].map(() =>
        openJobQueue<TestJobs>({ databaseUrl: database.url, queues, log: captureLog().log, role: 'worker' }),
      ),
    )
    try {
      for (const node of nodes) {
        await node.work('test.echo', async (job) => void seen.push(job.data.n), { pollingIntervalSeconds: 0.5 })
      }
      await queue.stop() // only the three new nodes work from here
      for (let n = 100; n < 140; n++) await nodes[n % 3]!.enqueue('test.echo', { n })
      await waitUntil(() => seen.length >= 40)
      await new Promise((resolve) => setTimeout(resolve, 1500)) // a double run would show up by now
      expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i))
    } finally {
      await Promise.all(nodes.map((node) => node.stop()))
    }
  })
})
