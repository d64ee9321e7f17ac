// Helpers for the job-queue tests: a logger that keeps what it is told, and a poll-until.
import os from 'node:os'
import path from 'node:path'
import { startJobs } from '../../src-server/jobs/start.ts'
import type { Log } from '../../src-server/kernel/log.ts'
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
