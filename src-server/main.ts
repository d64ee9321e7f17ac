// Production entry: read env, open the database, migrate, seed an empty catalogue, listen, shut down cleanly.
import type { AddressInfo } from 'node:net'
import { migrateToLatest } from '../db/migrate.ts'
import { seedIfEmpty } from '../db/seed/index.ts'
import { openDatabase } from './db.ts'
import { retryWhileUnavailable } from './db-wait.ts'
import { EnvError, readEnv } from './env.ts'
import { startJobs } from './jobs/start.ts'
import { listenUrls } from './listen-urls.ts'
import { configureSeller, sellerFromEnv } from './orders/seller.ts'
import { paymentsFromEnv } from './payments/config.ts'
import { createServer } from './server.ts'
import { stopOnSignals } from './shutdown.ts'
import { ensureOwner } from './team/owner.ts'

async function main() {
  const startedAt = performance.now()
  const env = readEnv()
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  const payments = paymentsFromEnv(env)
  configureSeller(sellerFromEnv(env))
  const server = await createServer({ env, db: database.db, payments })
  const log = server.app.log

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

  // The mail outbox and every scheduled job run on the job queue; WORKER=off leaves the work to `npm run worker`.
  const jobs = await startJobs({
    db: database.db,
    pglite: database.pglite,
    databaseUrl: env.DATABASE_URL,
    storage: server.storage,
    stripe: payments.stripe,
    env,
    log,
    role: env.WORKER === 'inline' ? 'worker' : 'web',
  })

  const url = await server.start()
  const { port } = server.app.server.address() as AddressInfo
  log.info(
    {
      url,
      urls: listenUrls(env.HOST, port),
      publicUrl: server.config.publicUrl,
      database: database.kind,
      startupMs: Math.round(performance.now() - startedAt),
    },
    'storefront ready',
  )

  stopOnSignals(log, [() => server.stop(), () => jobs.stop(), () => database.close()])
}

main().catch((error) => {
  if (error instanceof EnvError) console.error(error.message)
  else console.error('Failed to start:', error)
  process.exit(1)
})
