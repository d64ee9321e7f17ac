// Helpers for the job-queue tests: a logger that keeps what it is told, and a poll-until.
import os from 'node:os'
import path from 'node:path'
import { startJobs } from '../../src-server/jobs/start.ts'
import type { DB } from '../../src-server/kernel/db.ts'
import type { Log } from '../../src-server/kernel/log.ts'
import { enqueueMail } from '../../src-server/mail/outbox.ts'
import { createLocalStorage } from '../../src-server/storage/storage.ts'
import type { TestDatabase } from './db.ts'

export interface LogEntry {
  level: 'info' | 'warn' | 'error'
  details: Record<string, unknown>
  message: string
}

export function captureLog(): { log: Log; entries: LogEntry[] } {
  const entries: LogEntry[] = []
  const at = (level: LogEntry['level']) => (details: object, message: string) =>
    void entries.push({ level, details: details as Record<string, unknown>, message })
  return { log: { info: at('info'), warn: at('warn'), error: at('error') }, entries }
}

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Uploads storage for job tests that upload nothing (the worker's daily sweep needs one). */
export function emptyUploads() {
  return createLocalStorage(path.join(os.tmpdir(), 'storefront-jobs-no-uploads'))
}

/** The job worker delivering mail to `smtpUrl` with `tries` attempts a second apart (not six over half an hour). */
export function startMailWorker(database: TestDatabase, options: { smtpUrl: string; log: Log; tries: number }) {
  return startJobs({
    db: database.db,
    pglite: database.pglite,
    databaseUrl: database.url,
    env: { SMTP_URL: options.smtpUrl, MAIL_FROM: 'SkillForge <no-reply@skillforge.example>' },
    log: options.log,
    storage: emptyUploads(),
    tuning: {
      queues: { 'mail.send': { retryLimit: options.tries - 1, retryDelay: 1, retryDelayMax: 1 } },
      relayIntervalMs: 200,
    },
  })
}

/**
 * A live session announced to `holders` people, then someone signs up (decision 0148): the bulk mails and the
 * verification link written to the outbox in that order; resolves to the verification's outbox id.
 */
export async function queueBurstThenVerification(db: DB, holders: number): Promise<string> {
  for (let n = 0; n < holders; n++) {
    await enqueueMail(db, { kind: 'live_announced', to: `holder-${n}@example.com`, subject: 'Live', text: 'Hi' })
  }
  return enqueueMail(db, {
    kind: 'verify_email',
    to: 'newcomer@example.com',
    subject: 'Verify your e-mail',
    text: 'Hi',
  })
}
