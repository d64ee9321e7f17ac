// Production entry: read env, open the database, migrate, seed an empty catalogue, listen, shut down cleanly.
import type { AddressInfo } from 'node:net'
import { migrateToLatest } from '../db/migrate.ts'
import { seedIfEmpty } from '../db/seed/index.ts'
import { openDatabase } from './kernel/db.ts'
import { retryWhileUnavailable } from './kernel/db-wait.ts'
import { EnvError, readEnv } from './kernel/env.ts'
import { listenUrls } from './listen-urls.ts'
import { configureSeller, sellerFromEnv } from './orders/seller.ts'
import { paymentsFromEnv } from './payments/config.ts'
import { createServer } from './server.ts'
import { stopOnSignals } from './shutdown.ts'
import { ensureOwner } from './team/owner.ts'

async function main() {
  const startedAt = performance.now()
  // Milliseconds of each start-up step, in the ready line (scripts/bench-start.ts reads them).
  const phases: Record<string, number> = {}
  let last = startedAt
  const lap = (name: string) => {
    const now = performance.now()
    phases[name] = Math.round(now - last)
    last = now
  }
  const env = readEnv()
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  lap('openDatabase')
  const payments = paymentsFromEnv(env)
  configureSeller(sellerFromEnv(env))
  const server = await createServer({ env, db: database.db, payments })
  const log = server.app.log
  lap('createServer')

  // Each step is idempotent, so after a lost connection the whole preparation simply runs again.
  await retryWhileUnavailable(async () => {
    const applied = await migrateToLatest(database.db)
    if (applied.length) log.info({ migrations: applied }, 'applied migrations')
    if (env.SEED_ON_EMPTY && (await seedIfEmpty(database.db)))
      log.info('seeded the demo catalogue into an empty database')

    if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
      const owner = await ensureOwner(database.db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD)
      if (owner !== 'exists') log.info({ owner }, 'owner account from ADMIN_EMAIL')
    }
  }, log)
  lap('migrateAndSeed')

  if (env.TEST_CLOCK === 'on') {
    log.warn(
      {},
      "TEST_CLOCK=on: POST /api/test/clock can move this server's clock forward. For tests only, never in a real deployment",
    )
  }
  const url = await server.start()
  lap('listen')
  const { port } = server.app.server.address() as AddressInfo
  log.info(
    {
      url,
      urls: listenUrls(env.HOST, port),
      publicUrl: server.config.publicUrl,
      database: database.kind,
      startupMs: Math.round(performance.now() - startedAt),
      phases,
    },
    'storefront ready',
  )

  // The mail outbox and every scheduled job run on the job queue; WORKER=off leaves the work to `npm run worker`.
  // A web node enqueues nothing itself (mail waits in the outbox, which the worker relays), so with WORKER=off it
  // does not open the queue at all: no pg-boss in its memory, no connection of its own (decision 0030).
  // It starts once the site answers: no request needs it at once, and it is a good part of a start-up. A queue
  // that cannot start still stops the process, as before.
  const jobsStartedAt = performance.now()
  if (env.WORKER === 'off' && database.pglite) {
    log.warn({}, 'WORKER=off on the embedded database: no process sends mail or runs jobs')
  }
  // Loaded here, not at the top: pg-boss and nodemailer are a good share of the server's imports.
  const jobs =
    env.WORKER === 'off'
      ? Promise.resolve(undefined)
      : import('./jobs/start.ts').then(({ startJobs }) =>
          startJobs({
            db: database.db,
            pglite: database.pglite,
            databaseUrl: env.DATABASE_URL,
            storage: server.storage,
            tusFiles: server.tusFiles,
            stripe: payments.stripe,
            env,
            log,
          }),
        )
  jobs.then(
    (started) => {
      if (started) log.info({ startJobsMs: Math.round(performance.now() - jobsStartedAt) }, 'job queue started')
    },
    (error) => {
      log.fatal({ err: error }, 'job queue failed to start')
      process.exit(1)
    },
  )

  stopOnSignals(log, [
    () => server.stop(),
    async () => (await jobs.catch(() => undefined))?.stop(),
    () => database.close(),
  ])
}

main().catch((error) => {
  if (error instanceof EnvError) console.error(error.message)
  else console.error('Failed to start:', error)
  process.exit(1)
})
