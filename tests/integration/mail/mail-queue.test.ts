// Mail on the job queue, against a local fake SMTP server: a message written to the outbox is delivered once and
// marked 'sent'; failures are logged with the attempt count and the next try, and end 'failed' after N attempts; a
// node sends several messages at once, those someone waits for before bulk ones.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type RunningJobs, startJobs } from '../../../src-server/jobs/start.ts'
import { enqueueMail } from '../../../src-server/mail/outbox.ts'
import { createTestDatabase, type TestDatabase } from '../../support/db.ts'
import { type FakeSmtp, startFakeSmtp } from '../../support/fake-smtp.ts'
import { captureLog, emptyUploads, queueBurstThenVerification, startMailWorker, waitUntil } from '../../support/jobs.ts'

let database: TestDatabase
let smtp: FakeSmtp
let jobs: RunningJobs
const logged = captureLog()

beforeAll(async () => {
  database = await createTestDatabase()
  smtp = await startFakeSmtp('accept')
  jobs = await startMailWorker(database, { smtpUrl: smtp.url, log: logged.log, tries: 3 })
})
afterAll(async () => {
  await jobs?.stop()
  await smtp?.close()
  await database?.close()
})

function outboxRow(id: string) {
  return database.db
    .selectFrom('mail_outbox')
    .select(['status', 'attempts', 'last_error', 'job_id', 'sent_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

function mailTo(to: string, replyTo?: string) {
  return enqueueMail(database.db, { kind: 'test', to, replyTo, subject: `Hello ${to}`, text: `Body for ${to}` })
}

describe('mail on the job queue', () => {
  it('delivers an outbox message once, with its Reply-To, and marks it sent', async () => {
    smtp.mode = 'accept'
    const id = await mailTo('once@example.com', 'asker@example.com')
    await waitUntil(async () => (await outboxRow(id)).status === 'sent')

    const row = await outboxRow(id)
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null })
    expect(row.job_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(row.sent_at).toBeInstanceOf(Date)
    const delivered = smtp.deliveries.filter((d) => d.to.includes('<once@example.com>'))
    expect(delivered).toHaveLength(1)
    expect(delivered[0]!.data).toContain('Subject: Hello once@example.com')
    expect(delivered[0]!.data).toContain('Reply-To: asker@example.com')
  })

  it('logs every failure with the attempt count and the next try, and ends failed after the last attempt', async () => {
    smtp.mode = 'reject'
    const rejectedBefore = smtp.stats.rejected
    const id = await mailTo('bounce@example.com')
    await waitUntil(async () => (await outboxRow(id)).status === 'failed', 30_000)

    expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: 3 })
    expect((await outboxRow(id)).last_error).toContain('451')
    expect(smtp.stats.rejected - rejectedBefore).toBe(3)
    const failures = logged.entries.filter((entry) => entry.details.mailId === id)
    expect(failures.map((entry) => [entry.level, entry.details.attempt, entry.details.maxAttempts])).toEqual([
      ['warn', 1, 3],
      ['warn', 2, 3],
      ['error', 3, 3],
    ])
    for (const retry of failures.slice(0, 2)) {
      expect(retry.details.nextTryAfter).toBeInstanceOf(Date)
      expect(retry.message).toMatch(/^mail delivery failed \(attempt \d of 3\); next try \d{4}-/)
    }
    expect(failures[2]!.message).toBe('mail delivery failed (attempt 3 of 3); giving up')
  })

  it.runIf(inject('testDb').kind === 'postgres')(
    'holds no database transaction open while the SMTP server keeps it waiting',
    async () => {
      smtp.mode = 'hold'
      const heldBefore = smtp.stats.held
      await mailTo('slow@example.com')
      await smtp.waitFor(() => smtp.stats.held > heldBefore)
      await new Promise((resolve) => setTimeout(resolve, 1500))
      // Short transactions come and go (the relay's, pg-boss's); none may have stayed open across the wait.
      const open = await sql<{ state: string; query: string }>`
        select state, query from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and xact_start < now() - interval '1 second'`.execute(database.db)
      expect(open.rows).toEqual([])
      smtp.mode = 'accept'
    },
  )
})

describe('a mail job whose last attempt never finishes', () => {
  // Generous limits: under a loaded CI machine the supervisor's expiry sweep can lag by tens of seconds.
  it('is dead-lettered and its message marked failed', { timeout: 120_000 }, async () => {
    const own = await createTestDatabase()
    const silent = await startFakeSmtp('hold')
    const log = captureLog()
    // One try that may run a second: the held send outlives it, as a worker that died mid-send would.
    const worker = await startJobs({
      db: own.db,
      pglite: own.pglite,
      databaseUrl: own.url,
      env: { SMTP_URL: silent.url, MAIL_FROM: 'SkillForge <no-reply@skillforge.example>' },
      log: log.log,
      storage: emptyUploads(),
      tuning: {
        queues: { 'mail.send': { retryLimit: 0, expireInSeconds: 1 } },
        superviseSeconds: 1,
        relayIntervalMs: 200,
      },
    })
    try {
      const id = await enqueueMail(own.db, { kind: 'test', to: 'lost@example.com', subject: 'Hi', text: 'Hi' })
      await waitUntil(async () => {
        const row = await own.db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirst()
        return row?.status === 'failed'
      }, 100_000)
      const row = await own.db
        .selectFrom('mail_outbox')
        .select(['status', 'attempts', 'last_error'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ status: 'failed', attempts: 1, last_error: 'no attempt finished' })
      expect(log.entries).toContainEqual(
        expect.objectContaining({
          level: 'error',
          message: 'mail undeliverable; giving up',
          details: expect.objectContaining({ mailId: id }),
        }),
      )
      expect(silent.deliveries).toHaveLength(0)
    } finally {
      await silent.close() // ends the held send, so the worker stops at once
      await worker.stop()
      await own.close()
    }
  })
})

describe('several messages at once', () => {
  // One worker took one job a second and waited on its SMTP conversation: a burst of mail queued behind it.
  it('a node holds four SMTP conversations at once, so one slow server holds up no other message', async () => {
    const own = await createTestDatabase()
    const slow = await startFakeSmtp('hold')
    const worker = await startMailWorker(own, { smtpUrl: slow.url, log: captureLog().log, tries: 1 })
    try {
      for (const n of [1, 2, 3, 4]) {
        await enqueueMail(own.db, { kind: 'test', to: `burst-${n}@example.com`, subject: 'Hi', text: 'Hi' })
      }
      await slow.waitFor(() => slow.stats.held === 4)
      expect(slow.stats.held).toBe(4)
    } finally {
      await slow.close() // ends the held sends, so the worker stops at once
      await worker.stop()
      await own.close()
    }
  })

  it('a verification link goes before the announcements queued ahead of it', async () => {
    const own = await createTestDatabase()
    const slow = await startFakeSmtp('hold')
    try {
      // A live session announced to ten holders, then someone signs up; the worker starts with all of it waiting.
      const verification = await queueBurstThenVerification(own.db, 10)
      const worker = await startMailWorker(own, { smtpUrl: slow.url, log: captureLog().log, tries: 1 })
      try {
        // Four conversations held: the four mails taken first, whose attempts were counted before sending.
        await slow.waitFor(() => slow.stats.held === 4)
        const taken = await own.db.selectFrom('mail_outbox').select(['kind', 'id']).where('attempts', '>', 0).execute()
        expect(taken).toHaveLength(4)
        expect(taken.map((row) => row.id)).toContain(verification)
      } finally {
        await slow.close()
        await worker.stop()
      }
    } finally {
      await own.close()
    }
  })
})
