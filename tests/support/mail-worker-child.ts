// A worker process for the crash test: the job worker of `npm run worker` (startJobs, role 'worker') on
// DATABASE_URL or on the PGlite data dir DATA_DIR, with test timings: a dead worker's job is noticed within a second
// of its heartbeat lapsing and retried a second later (production: within a minute, then 30–60 s).
import path from 'node:path'
import Fastify from 'fastify'
import { startJobs } from '../../src-server/jobs/start.ts'
import { openDatabase } from '../../src-server/kernel/db.ts'
import { readEnv } from '../../src-server/kernel/env.ts'
import { createStorage } from '../../src-server/server.ts'

const env = readEnv()
const log = Fastify({ logger: { level: 'warn' } }).log
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
const jobs = await startJobs({
  db: database.db,
  pglite: database.pglite,
  databaseUrl: env.DATABASE_URL,
  storage: createStorage(env, path.resolve(env.DATA_DIR, 'uploads')),
  env,
  log,
  tuning: {
    superviseSeconds: 1,
    relayIntervalMs: 200,
    queues: { 'mail.send': { retryDelay: 1, retryDelayMax: 1 } },
  },
})
process.stdout.write('worker ready\n')
process.on('SIGTERM', async () => {
  await jobs.stop()
  await database.close()
  process.exit(0)
})
