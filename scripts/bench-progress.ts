// `npm run bench:progress [-- --learners 200 --seconds 45 --database-url postgres://…]`
// 200 learners watch a video lesson at once and save their progress every 15 s, as the player does, through the
// same domain function the procedure calls (flows/save-progress.ts: access check, row lock, range merge, and the
// completion check when a lesson completes). Runs on PGlite (embedded) and on PostgreSQL (--database-url, or
// TEST_DATABASE_URL), each in a scratch database, and prints per backend: p50/p99 latency of a write, writes/s
// achieved, and the database cost of one write (statements and their summed time; BEGIN/COMMIT not counted).
// A second phase sends all learners' writes at the same instant, five times, for the throughput ceiling.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { insertUser } from '../db/seed/factories.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { grant } from '../src-server/access/ledger.ts'
import { saveVideoProgress } from '../src-server/flows/save-progress.ts'
import { type DatabaseHandle, openDatabase } from '../src-server/kernel/db.ts'
import { adminQuery } from '../tests/support/postgres-admin.ts'

const { values } = parseArgs({
  options: {
    learners: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '45' },
    'database-url': { type: 'string' },
    'skip-pglite': { type: 'boolean', default: false },
  },
})
const LEARNERS = Number(values.learners)
const SECONDS = Number(values.seconds)
const INTERVAL_MS = 15_000
const COURSE = 'modern-react-typescript'
const adminUrl = values['database-url'] ?? process.env.TEST_DATABASE_URL

/** Counts the statements Kysely runs and sums their time. */
class QueryMeter implements KyselyPlugin {
  statements = 0
  totalMs = 0
  readonly #started = new WeakMap<object, number>()
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.#started.set(args.queryId, performance.now())
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const started = this.#started.get(args.queryId)
    if (started !== undefined) {
      this.statements += 1
      this.totalMs += performance.now() - started
    }
    return args.result
  }
  reset() {
    this.statements = 0
    this.totalMs = 0
  }
}

type Learner = {
  id: string
  email: string
  firstName: string
  lastName: string
  role: 'customer' | 'viewer' | 'editor' | 'admin' | 'super_admin'
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

async function run(handle: DatabaseHandle) {
  await migrateToLatest(handle.db)
  await seedDatabase(handle.db)
  const video = await handle.db
    .selectFrom('lessons')
    .select(['id', 'duration_seconds'])
    .where('course_id', '=', COURSE)
    .where('kind', '=', 'video')
    .where('is_preview', '=', false)
    .executeTakeFirstOrThrow()
  const learners: Learner[] = []
  for (let i = 0; i < LEARNERS; i += 1) {
    const user = await insertUser(handle.db, {
      email: `bench-${i}-${randomBytes(3).toString('hex')}@example.test`,
      first_name: 'Bench',
      last_name: `Learner ${i}`,
    })
    learners.push({
      id: user.id,
      email: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
      role: user.role,
    })
  }
  // Buyers of the course (what a paid order grants).
  for (const learner of learners) {
    await grant(handle.db, {
      userId: learner.id,
      right: { kind: 'course', courseId: COURSE },
      source: { kind: 'staff' },
    })
  }

  const meter = new QueryMeter()
  const db = handle.db.withPlugin(meter)
  const latencies: number[] = []
  let writes = 0
  const write = async (learner: Learner, tick: number) => {
    const start = (tick * 15) % video.duration_seconds
    const started = performance.now()
    await saveVideoProgress(
      db,
      learner,
      {
        courseId: COURSE,
        lessonId: video.id,
        positionSeconds: Math.min(start + 15, video.duration_seconds),
        ranges: [[start, Math.min(start + 15, video.duration_seconds)]],
        sentAt: Date.now(),
      },
      'http://bench.local',
    )
    latencies.push(performance.now() - started)
    writes += 1
  }

  // Steady phase: each learner saves every 15 s, their phases spread over the interval as real viewers' would be.
  const began = performance.now()
  const deadline = began + SECONDS * 1000
  await Promise.all(
    learners.map(async (learner, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i / LEARNERS) * INTERVAL_MS))
      for (let tick = 0; performance.now() < deadline; tick += 1) {
        const next = performance.now() + INTERVAL_MS
        await write(learner, tick)
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())))
      }
    }),
  )
  const elapsed = (performance.now() - began) / 1000
  const sorted = [...latencies].sort((a, b) => a - b)
  const steady = {
    writes,
    writesPerSecond: writes / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    statementsPerWrite: meter.statements / writes,
    dbMsPerWrite: meter.totalMs / writes,
  }

  // Solo phase: one write at a time, so the statement time is the database's work, not waiting for a connection.
  meter.reset()
  for (let i = 0; i < 100; i += 1) await write(learners[i % learners.length] as Learner, 10 + i)
  const solo = { statementsPerWrite: meter.statements / 100, dbMsPerWrite: meter.totalMs / 100 }

  // Burst phase: every learner's write at the same instant, five times.
  meter.reset()
  latencies.length = 0
  writes = 0
  const burstStart = performance.now()
  for (let round = 0; round < 5; round += 1) await Promise.all(learners.map((learner) => write(learner, round)))
  const burstSeconds = (performance.now() - burstStart) / 1000
  const burstSorted = [...latencies].sort((a, b) => a - b)
  const burst = { writesPerSecond: writes / burstSeconds, p99: percentile(burstSorted, 99) }
  return { steady, solo, burst }
}

function report(kind: string, result: Awaited<ReturnType<typeof run>>) {
  const { steady, solo, burst } = result
  console.log(`\n${kind}: ${LEARNERS} learners saving every 15 s for ${SECONDS} s`)
  console.log(`  writes: ${steady.writes}, ${steady.writesPerSecond.toFixed(1)} writes/s`)
  console.log(`  latency per write: p50 ${steady.p50.toFixed(1)} ms, p99 ${steady.p99.toFixed(1)} ms`)
  console.log(
    `  database cost per write: ${solo.statementsPerWrite.toFixed(1)} statements (+ BEGIN/COMMIT), ` +
      `${solo.dbMsPerWrite.toFixed(2)} ms of statement time alone (${steady.dbMsPerWrite.toFixed(2)} ms under the ` +
      'load above, waits for a connection included)',
  )
  console.log(
    `  burst (all ${LEARNERS} at once, ×5): ${burst.writesPerSecond.toFixed(0)} writes/s, p99 ${burst.p99.toFixed(1)} ms`,
  )
}

if (!values['skip-pglite']) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-progress-'))
  const handle = await openDatabase({ dataDir: dir })
  try {
    report('PGlite (embedded)', await run(handle))
  } finally {
    await handle.close()
    await rm(dir, { recursive: true, force: true })
  }
}
if (adminUrl) {
  const name = `bench_progress_${randomBytes(4).toString('hex')}`
  await adminQuery(adminUrl, `create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 10 })
  try {
    report('PostgreSQL (pool of 10)', await run(handle))
  } finally {
    await handle.close()
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`)
  }
} else {
  console.log('\nPostgreSQL skipped: pass --database-url or set TEST_DATABASE_URL')
}
