// `npm run worker`: the job worker alone (mail, schedules), for deployments whose web nodes run with WORKER=off.
// It needs PostgreSQL: the embedded database belongs to the server process, which runs its worker inline.
import path from 'node:path'
import Fastify from 'fastify'
import { migrateToLatest } from '../db/migrate.ts'
import { startJobs } from './jobs/start.ts'
import { openDatabase } from './kernel/db.ts'
import { EnvError, readEnv } from './kernel/env.ts'
import { redactingLogOptions } from './kernel/log.ts'
import { configureSeller, sellerFromEnv } from './orders/seller.ts'
import { paymentsFromEnv } from './payments/config.ts'
import { createStorage, createTusFiles } from './server.ts'
import { stopOnSignals } from './shutdown.ts'

async function main() {
  const env = readEnv()
  if (!env.DATABASE_URL) {
    throw new EnvError(
      'Invalid environment variables:\n  DATABASE_URL: required by `npm run worker` (on the embedded database the server runs the worker itself)',
    )
  }
  // The same pino logger the server uses, without a server.
  const log = Fastify({ logger: { level: env.LOG_LEVEL, ...redactingLogOptions } }).log
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, poolSize: 4 })
  // Either kind of node may start first; the migrator's lock makes concurrent runs safe.
  await migrateToLatest(database.db)
  // S3 when configured; else the uploads folder under DATA_DIR, which this worker then must share with the server.
  const storage = createStorage(env, path.resolve(env.DATA_DIR, 'uploads'))
  configureSeller(sellerFromEnv(env))
  const { stripe } = paymentsFromEnv(env)
  const jobs = await startJobs({
    db: database.db,
    databaseUrl: env.DATABASE_URL,
    storage,
    tusFiles: createTusFiles(env, path.resolve(env.DATA_DIR)),
    stripe,
    env,
    log,
  })
  log.info({}, 'worker ready')

  stopOnSignals(log, [() => jobs.stop(), () => database.close()], 'worker')
}

main().catch((error) => {
  if (error instanceof EnvError) console.error(error.message)
  else console.error('Worker failed to start:', error)
  process.exit(1)
})
