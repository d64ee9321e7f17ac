// `npm run worker` (src-server/worker.ts): on PostgreSQL it does the work a web node with WORKER=off leaves, and
// stops cleanly on SIGTERM; on the embedded database it refuses to start (the server owns that database).
import { describe, expect, inject, it } from 'vitest'
import { enqueueMail } from '../../../src-server/mail/outbox.ts'
import { startChild } from '../../support/child.ts'
import { createTestDatabase } from '../../support/db.ts'
import { waitUntil } from '../../support/jobs.ts'

const WORKER = 'src-server/worker.ts'

describe('npm run worker', () => {
  it.runIf(inject('testDb').kind === 'pglite')('refuses the embedded database, naming DATABASE_URL', async () => {
    const child = startChild(WORKER, { ...process.env, DATABASE_URL: '' }, 'worker ready')
    await expect(child).rejects.toThrow(/exited \(1\)[\s\S]*DATABASE_URL: required by `npm run worker`/)
  })

  it.runIf(inject('testDb').kind === 'postgres')(
    'delivers what a web node (WORKER=off) enqueued, and stops on SIGTERM',
    { timeout: 90_000 },
    async () => {
      // A web node with WORKER=off opens no queue (main.ts): it only writes the outbox row.
      const database = await createTestDatabase()
      try {
        const id = await enqueueMail(database.db, { kind: 'test', to: 'split@example.com', subject: 'Hi', text: 'Hi' })
        const status = async () =>
          (await database.db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirstOrThrow())
            .status
        await new Promise((resolve) => setTimeout(resolve, 2000))
        expect(await status()).toBe('pending') // a web node only enqueues

        const worker = await startChild(
          WORKER,
          { ...process.env, DATABASE_URL: database.url, SMTP_URL: '', LOG_LEVEL: 'info' },
          '"msg":"worker ready"',
        )
        await waitUntil(async () => (await status()) === 'logged', 30_000) // no SMTP_URL: logged and kept
        worker.process.kill('SIGTERM')
        expect(await worker.exited).toBe(0)
        expect(worker.output()).toContain('"msg":"worker shutting down"')
      } finally {
        await database.close()
      }
    },
  )
})
