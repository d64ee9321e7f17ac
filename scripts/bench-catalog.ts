// `npm run bench:catalog [-- --db postgres://…/sf_bench_1m] [--size 100000 --runs 40 --database-url U]`
// Times the storefront's public reads as the browser makes them (tRPC GETs over loopback to the real server,
// in-process) and prints median and p99 per scenario, then the database's own time for one such request (the sum of
// EXPLAIN ANALYZE execution times of the statements it ran), which a busy shared machine disturbs far less.
//   --db URL         an existing database filled by `npm run db:generate` (reused as is: nothing is generated)
//   otherwise        a scratch database with --size generated courses: PGlite in a temp dir, or a new database on
//                    the PostgreSQL of --database-url / TEST_DATABASE_URL (dropped afterwards unless --keep)
import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { CompiledQuery, Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { migrateToLatest } from '../db/migrate.ts'
import { generateCatalogue } from '../db/seed/generate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import type { Database } from '../db/types.ts'
import { type DatabaseHandle, openDatabase } from '../src-server/kernel/db.ts'
import { startTestServer } from '../tests/support/http.ts'
import { catalogueRequests, sampleCourseId } from './bench/catalog-requests.ts'
import { percentile } from './bench/stats.ts'

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    size: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '40' },
    'database-url': { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
})
const runs = Number(values.runs)
let scratchUrl: string | undefined

const { handle, cleanup } = await openBenchDatabase()
// The server's queries go through a second Kysely that can record them (off while timing).
const recorded: CompiledQuery[] = []
let recording = false
const dialect =
  handle.kind === 'pglite' && handle.pglite
    ? new PGliteDialect({ pglite: handle.pglite })
    : new PostgresDialect({ pool: new pg.Pool({ connectionString: values.db ?? scratchUrl, max: 10 }) })
const serverDb = new Kysely<Database>({
  dialect,
  log: (event) => {
    if (recording && event.level === 'query') recorded.push(event.query)
  },
})
const server = await startTestServer(serverDb, { env: { NODE_ENV: 'production' } })
try {
  const total = await handle.db
    .selectFrom('courses')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  console.log(`${handle.kind}, ${Number(total.n).toLocaleString('en-US')} courses; load: ${loadAverage()}`)
  console.log(`${runs} runs per request after one warm-up, ms:\n`)
  console.log('request'.padEnd(46), 'median'.padStart(8), 'p99'.padStart(8), 'DB ms'.padStart(8), 'bytes'.padStart(8))
  for (const request of catalogueRequests(await sampleCourseId(handle.db))) {
    const url = server.baseUrl + request.path
    const first = await get(url)
    const times: number[] = []
    for (let i = 0; i < runs; i++) {
      const started = performance.now()
      await get(url)
      times.push(performance.now() - started)
    }
    recorded.length = 0
    recording = true
    await get(url)
    recording = false
    console.log(
      request.name.padEnd(46),
      percentile(times, 50).toFixed(1).padStart(8),
      percentile(times, 99).toFixed(1).padStart(8),
      (await databaseMs(recorded)).toFixed(2).padStart(8),
      String(first.length).padStart(8),
    )
  }
} finally {
  await server.stop()
  if (handle.kind === 'postgres') await serverDb.destroy()
  await cleanup()
}

/**
 * The sum of the statements' execution times as EXPLAIN ANALYZE measures them inside the database (each the best of
 * three, so a moment of contention on a shared machine does not count).
 */
async function databaseMs(statements: CompiledQuery[]): Promise<number> {
  let total = 0
  for (const statement of statements) {
    const times: number[] = []
    for (let run = 0; run < 3; run++) {
      const { rows } = await handle.db.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`explain (analyze, timing off) ${statement.sql}`, [...statement.parameters]),
      )
      const line = rows.map((row) => Object.values(row)[0]).find((text) => text?.startsWith('Execution Time'))
      times.push(Number(/([\d.]+) ms/.exec(line ?? '')?.[1] ?? 0))
    }
    total += Math.min(...times)
  }
  return total
}

async function get(url: string): Promise<string> {
  const response = await fetch(url)
  const body = await response.text()
  if (!response.ok) throw new Error(`${response.status} from ${url}: ${body.slice(0, 300)}`)
  return body
}

function loadAverage(): string {
  try {
    return execSync('uptime')
      .toString()
      .trim()
      .replace(/^.*load/, 'load')
  } catch {
    return os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')
  }
}

async function openBenchDatabase(): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }> {
  if (values.db) {
    const handle = await openDatabase({ databaseUrl: values.db, poolSize: 10 })
    await migrateToLatest(handle.db)
    return { handle, cleanup: () => handle.close() }
  }
  const scratch = await openScratch()
  await migrateToLatest(scratch.handle.db)
  await seedDatabase(scratch.handle.db)
  const started = performance.now()
  await generateCatalogue(scratch.handle.db, { courses: Number(values.size), batch: 20_000 })
  await sql`vacuum analyze courses`.execute(scratch.handle.db)
  console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return scratch
}

async function openScratch(): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void> }> {
  const adminUrl = values['database-url'] ?? process.env.TEST_DATABASE_URL
  if (adminUrl) {
    const name = `bench_catalog_${randomBytes(4).toString('hex')}`
    await adminQuery(adminUrl, `create database ${name}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    scratchUrl = url.toString()
    const handle = await openDatabase({ databaseUrl: scratchUrl, poolSize: 10 })
    return {
      handle,
      cleanup: async () => {
        await handle.close()
        if (values.keep) console.log(`\nKept database ${name}`)
        else await adminQuery(adminUrl, `drop database if exists ${name} with (force)`)
      },
    }
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-catalog-'))
  const handle = await openDatabase({ dataDir: dir })
  return {
    handle,
    cleanup: async () => {
      await handle.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}
