// Measures the store's latency on the embedded database while an SMTP server accepts the connection and never
// answers: the real server (src-server/main.ts) runs in a child process on a PGlite data directory with mail
// waiting in its outbox, and catalogue requests are timed over HTTP while its worker is stuck on that server.
// Used by tests/integration/mail/mail-smtp-hang.test.ts and scripts/bench-mail-hang.ts.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { migrateToLatest } from '../../db/migrate.ts'
import { seedDatabase } from '../../db/seed/index.ts'
import { openPglite } from '../../src-server/kernel/db.ts'
import { enqueueMail } from '../../src-server/mail/outbox.ts'
import { startChild } from './child.ts'
import { startFakeSmtp } from './fake-smtp.ts'

export interface HangMeasurement {
  requests: number
  p50: number
  p95: number
  p99: number
  max: number
  /**
   * The mailer was connected to the silent SMTP server when the first request went and after the last answered, and
   * no mail went out. It may give a connection up and open another between (a retry on a loaded machine): the
   * server never answers, so the worker was stuck on SMTP throughout.
   */
  smtpHungThroughout: boolean
  /** SMTP connections the mailer opened by the end (1 unless it retried). */
  smtpConnections: number
}

export interface HangOptions {
  requests?: number
  concurrency?: number
  /** A migrated and seeded PGlite dump to start from (else one is built: slower). */
  dump?: Blob
  /** 'silent' (the case measured) or 'none' (no SMTP_URL: the baseline). */
  smtp?: 'silent' | 'none'
}

const CATALOGUE = `/trpc/catalog.search?input=${encodeURIComponent(JSON.stringify({}))}`

export async function measureStoreWhileSmtpHangs(options: HangOptions = {}): Promise<HangMeasurement> {
  const { requests = 200, concurrency = 4 } = options
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'storefront-smtp-hang-'))
  const smtp = await startFakeSmtp('silent')
  let child: Awaited<ReturnType<typeof startChild>> | undefined
  try {
    await prepareDataDir(dataDir, options.dump)
    child = await startChild(
      'src-server/main.ts',
      {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        SEED_ON_EMPTY: 'false',
        CLIENT_DIR: path.join(dataDir, 'no-client'),
        // The mailer gives up on a silent server after 15 s by default and tries again later; on a busy machine the
        // requests take longer than that, so the hang is made to outlast them (the server reads its timeouts from
        // the URL, transport.ts).
        SMTP_URL: options.smtp === 'none' ? '' : `${smtp.url}?greetingTimeout=600000&socketTimeout=600000`,
      },
      /"msg":"storefront ready"/,
    )
    const baseUrl = child.output().match(/"url":"(http:\/\/[^"]+)"/)?.[1]
    if (!baseUrl) throw new Error(`no URL in the server's output:\n${child.output()}`)
    if (options.smtp !== 'none') {
      // The worker starts after "ready" and polls once a second; on a loaded 2-core run it has taken over 30 s.
      await smtp
        .waitFor(() => smtp.stats.open > 0, 90_000)
        .catch((error) => {
          throw new Error(`${error.message}; the server printed:\n${child?.output().slice(-4000)}`)
        })
    }
    // The fake server never says a word, so the mailer is stuck on it whenever it is connected; it may give a job
    // up and connect again (a loaded run saw two connections and a moment with none between them). What must hold
    // is that it was stuck when the requests began and when they ended, and delivered nothing.
    const stuckAtStart = options.smtp !== 'none' && smtp.stats.open > 0

    // No warm-up: every request made while the mail is stuck counts, the first ones included.
    const timings: number[] = []
    let next = 0
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests) {
          next++
          timings.push(await timedGet(baseUrl))
        }
      }),
    )
    // Stuck at the end too: connected now, or again within a few seconds (a job given up reconnects at once, but a
    // loaded machine may take a moment to get there).
    const stuckAtEnd =
      options.smtp !== 'none' &&
      (await smtp
        .waitFor(() => smtp.stats.open > 0, 10_000)
        .then(
          () => true,
          () => false,
        ))
    const hungThroughout = stuckAtStart && stuckAtEnd && smtp.deliveries.length === 0
    timings.sort((a, b) => a - b)
    const at = (p: number) => round(timings[Math.min(timings.length - 1, Math.ceil((p / 100) * timings.length) - 1)]!)
    return {
      requests: timings.length,
      p50: at(50),
      p95: at(95),
      p99: at(99),
      max: round(timings.at(-1)!),
      smtpHungThroughout: hungThroughout,
      smtpConnections: smtp.stats.connections,
    }
  } finally {
    if (child) {
      child.process.kill('SIGKILL')
      await child.exited
    }
    await smtp.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** A seeded store with three messages waiting in its outbox. */
async function prepareDataDir(dataDir: string, dump?: Blob) {
  const handle = await openPglite({ dataDir, loadDataDir: dump })
  try {
    if (!dump) {
      await migrateToLatest(handle.db)
      await seedDatabase(handle.db)
    }
    for (const n of [1, 2, 3]) {
      await enqueueMail(handle.db, { kind: 'test', to: `waiting${n}@example.com`, subject: 'Hello', text: 'Hi' })
    }
  } finally {
    await handle.close()
  }
}

async function timedGet(baseUrl: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${baseUrl}${CATALOGUE}`, { signal: AbortSignal.timeout(90_000) })
  if (!response.ok) throw new Error(`catalog.search answered ${response.status}`)
  await response.arrayBuffer()
  return performance.now() - started
}

const round = (ms: number) => Math.round(ms * 10) / 10
