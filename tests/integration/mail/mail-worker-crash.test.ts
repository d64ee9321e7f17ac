// A worker killed in the middle of a mail job loses nothing: the fake SMTP server holds the message (it has the
// whole text but has not said 250) when the worker process gets SIGKILL; after a restart the job runs again and
// the message ends 'sent', delivered once. On PostgreSQL, and on the embedded database's data directory.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { type DatabaseHandle, openPglite } from '../../../src-server/kernel/db.ts'
import { enqueueMail } from '../../../src-server/mail/outbox.ts'
import { type Child, startChild } from '../../support/child.ts'
import { createTestDatabase } from '../../support/db.ts'
import { type FakeSmtp, startFakeSmtp } from '../../support/fake-smtp.ts'

const WORKER = 'tests/support/mail-worker-child.ts'
const testDb = inject('testDb')
const cleanup: (() => Promise<unknown>)[] = []

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined)
})

/** The test's database: a PostgreSQL copy, or a PGlite data directory the worker process opens itself. */
async function prepareDatabase(): Promise<{ env: NodeJS.ProcessEnv; open(): Promise<DatabaseHandle> }> {
  if (testDb.kind === 'postgres') {
    const database = await createTestDatabase()
    cleanup.push(() => database.close())
    return { env: { DATABASE_URL: database.url }, open: async () => ({ ...database, close: async () => {} }) }
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-crash-'))
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }))
  const dump = await readFile(testDb.templateDumpPath)
  await (await openPglite({ dataDir, loadDataDir: new Blob([dump]) })).close()
  // Only one process may have the data directory open: the test opens it only while no worker runs.
  return { env: { DATABASE_URL: '', DATA_DIR: dataDir }, open: () => openPglite({ dataDir }) }
}

async function startWorker(env: NodeJS.ProcessEnv): Promise<Child> {
  const child = await startChild(WORKER, { ...process.env, LOG_LEVEL: 'warn', ...env }, 'worker ready')
  cleanup.push(async () => {
    child.process.kill('SIGKILL')
    await child.exited
  })
  return child
}

describe('a worker killed in the middle of a mail job', () => {
  // Two worker start-ups on a data directory take ~30 s alone; a loaded CI machine has taken over 120 s.
  it('loses no job: after a restart the message is sent, once', { timeout: 300_000 }, async () => {
    const smtp: FakeSmtp = await startFakeSmtp('hold')
    cleanup.push(() => smtp.close())
    const database = await prepareDatabase()
    const setup = await database.open()
    const mailId = await enqueueMail(setup.db, {
      kind: 'test',
      to: 'survivor@example.com',
      subject: 'Still here',
      text: 'This message outlived its first worker.',
    })
    await setup.close()
    const env = { ...database.env, SMTP_URL: smtp.url }

    const first = await startWorker(env)
    await smtp.waitFor(() => smtp.stats.held === 1, 120_000)
    first.process.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')
    expect(smtp.deliveries).toHaveLength(0)

    smtp.mode = 'accept'
    const second = await startWorker(env)
    await smtp
      .waitFor(() => smtp.deliveries.length === 1, 120_000)
      .catch((error) => {
        throw new Error(`${error}\nworker output:\n${second.output()}`)
      })
    await new Promise((resolve) => setTimeout(resolve, 3000)) // a second delivery would arrive by now
    second.process.kill('SIGTERM')
    expect(await second.exited).toBe(0)

    expect(smtp.deliveries).toHaveLength(1)
    expect(smtp.deliveries[0]!.to).toEqual(['<survivor@example.com>'])
    const check = await database.open()
    cleanup.push(() => check.close())
    const row = await check.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', mailId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'sent', attempts: 2 })
  })
})
