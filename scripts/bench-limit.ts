// `npm run bench:limit -- --db postgres://…/sf_bench_100k [--seconds 5 --rounds 3 --warmup 3 --connections 10 --profile
//   --only catalogue|course --bare-prepared --bare-shared --alloc --app-flags='…']`
// Framework overhead: the built app (`npm run build` first; production mode, WORKER=off, its usual logging to
// /dev/null) against a bare Fastify + pg server (scripts/bench/bare-server.ts) that runs the same statements for the
// same URLs and answers the same JSON. Both are loaded in turn, round after round, on loopback by a closed loop of
// keep-alive connections; prints req/s, p50, p99, the ratio, each server's CPU time per request (the steadier figure
// on a shared machine) with the kernel's share of it, and peak RSS. --profile writes a V8 CPU profile of each server (--cpu-prof) and prints its top
// frames by self time and its time by owner (package). --bare-prepared has the bare server send its statements by
// name too, as the app sends its hot queries (decision 0030). --bare-shared has it share the catalogue version read
// among the requests of one event-loop turn, as the app does (decision 0082): the baseline without the saving of round
// trips that the app makes, so the ratio is the framework's alone. --alloc also prints the bytes each server's JavaScript
// heap allocated per request under the load and its collections (scripts/bench/alloc-probe.mjs): unlike time, a
// figure the machine's other work does not move.
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '../db/types.ts'
import { freePort } from '../tests/support/free-port.ts'
import { startTestServer } from '../tests/support/http.ts'
import { sampleCourseId, trpcBatchUrl } from './bench/catalog-requests.ts'
import { runLoad, summarise } from './bench/load.ts'
import { timeByOwner, topFrames } from './bench/profile-top.ts'

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    /** seconds of load on each server before measuring (the JIT compiler's work on a fresh server) */
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    profile: { type: 'boolean', default: false },
    /** Node flags for the app instead of `npm run serve`'s (to compare settings), e.g. --app-flags='--max-semi-space-size=16' */
    'app-flags': { type: 'string' },
    /** only the requests whose name starts with this ('catalogue' or 'course'), e.g. to profile one of them */
    only: { type: 'string' },
    /** the bare server prepares its statements too (by name, once per connection), as the app does its hot ones */
    'bare-prepared': { type: 'boolean', default: false },
    'bare-shared': { type: 'boolean', default: false },
    /** count each server's heap allocation per request (v8.GCProfiler in the server, started and stopped by SIGUSR2) */
    alloc: { type: 'boolean', default: false },
  },
})
const databaseUrl = values.db ?? process.env.DATABASE_URL
const MAIN = path.resolve('dist/server/src-server/main.js')
if (!databaseUrl || !existsSync(MAIN)) {
  console.error(
    'usage: npm run build && npm run bench:limit -- --db postgres://…/<a database from npm run db:generate>',
  )
  process.exit(2)
}
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const connections = Number(values.connections)
const work = await mkdtemp(path.join(os.tmpdir(), 'bench-limit-'))

const plan = await recordPlan()
const planFile = path.join(work, 'plan.json')
writeFileSync(planFile, JSON.stringify(plan))

// Free ports, not fixed ones: two sessions' runs on one machine would otherwise load each other's servers.
const APP_PORT = await freePort()
const BARE_PORT = await freePort()
// The app runs as `npm run serve` runs it: with the same Node flags (the young generation's size: decision 0029).
const serveScript = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts
  .serve
const serveFlags =
  values['app-flags']?.split(/\s+/).filter(Boolean) ?? serveScript?.match(/(?<=\s)--[\w-]+(=\S+)?/g) ?? []
const PROBE = path.resolve('scripts/bench/alloc-probe.mjs')
const probeFlags = values.alloc ? ['--import', PROBE] : []
/** The servers whose allocation probe is counting. */
const probing = new Set<ChildProcess>()
const app = spawn(
  process.execPath,
  [...serveFlags, ...probeFlags, ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${work}`] : []), MAIN],
  {
    env: {
      ...process.env,
      ALLOC_PROBE_OUT: path.join(work, 'alloc-app.json'),
      DATABASE_URL: databaseUrl,
      PORT: String(APP_PORT),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      WORKER: 'off',
      SEED_ON_EMPTY: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
)
const bareProfileDir = path.join(work, 'bare')
const bare = fork(path.resolve('scripts/bench/bare-server.ts'), {
  execArgv: [
    '--import',
    'tsx',
    ...probeFlags,
    ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${bareProfileDir}`] : []),
  ],
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ALLOC_PROBE_OUT: path.join(work, 'alloc-bare.json'),
    PORT: String(BARE_PORT),
    BARE_PLAN: planFile,
    BARE_PREPARED: values['bare-prepared'] ? '1' : '0',
    BARE_SHARED: values['bare-shared'] ? '1' : '0',
  },
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
})
try {
  await Promise.all([ready(APP_PORT), ready(BARE_PORT)])
  console.log(`app: node ${serveFlags.join(' ')} ${path.relative('.', MAIN)}`)
  console.log(
    `bare: Fastify + pg, statements ${values['bare-prepared'] ? 'prepared by name' : 'unnamed (parsed each time)'}${
      values['bare-shared'] ? ', the version read shared per turn' : ''
    }`,
  )
  console.log(
    `load: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}; ${connections} connections, ${rounds} × ${seconds} s each`,
  )
  console.log(
    'request'.padEnd(22),
    'server'.padEnd(6),
    'req/s'.padStart(8),
    'p50'.padStart(7),
    'p99'.padStart(7),
    'ratio'.padStart(7),
    'CPU µs/req'.padStart(9),
    'CPU/bare'.padStart(9),
  )
  const peak = { app: 0, bare: 0 }
  for (const url of Object.keys(plan)) {
    const name = url.startsWith('/trpc/catalog.search') ? 'catalogue first page' : 'course detail'
    if (values.only && !name.startsWith(values.only)) continue
    const cpu = { app: 0, bare: 0 }
    const systemCpu = { app: 0, bare: 0 }
    const heap = { app: emptyAlloc(), bare: emptyAlloc() }
    const results = {
      app: [] as Awaited<ReturnType<typeof runLoad>>[],
      bare: [] as Awaited<ReturnType<typeof runLoad>>[],
    }
    await runLoad(`http://127.0.0.1:${APP_PORT}${url}`, connections, Number(values.warmup))
    await runLoad(`http://127.0.0.1:${BARE_PORT}${url}`, connections, Number(values.warmup))
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const)
      for (const which of order) {
        const port = which === 'app' ? APP_PORT : BARE_PORT
        const child = which === 'app' ? app : bare
        const sampler = setInterval(() => {
          peak[which] = Math.max(peak[which], rssMiB(child))
        }, 100)
        if (values.alloc) await probe(child, which)
        const cpuBefore = cpuMs(child)
        const systemBefore = cpuMs(child, 'system')
        const result = await runLoad(`http://127.0.0.1:${port}${url}`, connections, seconds)
        cpu[which] += cpuMs(child) - cpuBefore
        systemCpu[which] += cpuMs(child, 'system') - systemBefore
        if (values.alloc) addAlloc(heap[which], await probe(child, which), result.requests + result.errors)
        results[which].push(result)
        clearInterval(sampler)
      }
    }
    const a = summarise(results.app)
    const b = summarise(results.bare)
    // CPU time the server process spent per answered request: unlike req/s, it does not depend on how much of the
    // shared machine the other processes leave us.
    const perRequest = (which: 'app' | 'bare', s: typeof a) => (cpu[which] * 1000) / (s.rps * rounds * seconds || 1)
    const row = (server: 'app' | 'bare', s: typeof a, ratio = '', cpuRatio = '') =>
      console.log(
        name.padEnd(22),
        server.padEnd(6),
        s.rps.toFixed(0).padStart(8),
        s.p50.toFixed(1).padStart(7),
        s.p99.toFixed(1).padStart(7),
        ratio.padStart(7),
        perRequest(server, s).toFixed(0).padStart(9),
        cpuRatio.padStart(9),
        s.errors ? `errors: ${s.errors}` : '',
      )
    // Both as issue 37 states its goal: throughput app / bare (≥ 0.9), CPU per request app / bare (≤ 1.25×).
    row('app', a, (a.rps / b.rps).toFixed(2), `${(perRequest('app', a) / perRequest('bare', b)).toFixed(2)}×`)
    row('bare', b)
    // The kernel's share (socket reads and writes, epoll): the same work for both servers unless one writes more.
    const systemShare = (which: 'app' | 'bare') => `${((systemCpu[which] / (cpu[which] || 1)) * 100).toFixed(0)} %`
    console.log(`  CPU in the kernel: app ${systemShare('app')}, bare ${systemShare('bare')}`)
    if (values.alloc) {
      for (const which of ['app', 'bare'] as const) {
        const h = heap[which]
        console.log(
          `  ${which} heap: ${(h.allocated / h.requests / 1024).toFixed(1)} kB allocated per request, ` +
            `${h.scavenges} scavenges (${(h.pauseUs / Math.max(1, h.collections) / 1000).toFixed(2)} ms each, ` +
            `${((h.pauseUs * 1000) / h.requests / 1000).toFixed(1)} µs per request), ` +
            `${(h.promoted / Math.max(1, h.scavenges) / 1024).toFixed(0)} kB promoted per scavenge, ` +
            `${h.collections - h.scavenges} other collections`,
        )
      }
    }
  }
  console.log(`peak RSS under load: app ${peak.app.toFixed(0)} MiB, bare ${peak.bare.toFixed(0)} MiB`)
} finally {
  await stop(app)
  await stop(bare)
}
if (values.profile) {
  for (const [which, dir] of [
    ['app', work],
    ['bare', bareProfileDir],
  ] as const) {
    const file = existsSync(dir) && readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))
    if (!file) continue
    console.log(`\n${which} CPU profile ${path.join(dir, file)}, top frames by self time:`)
    for (const line of topFrames(path.join(dir, file), 20)) console.log(`  ${line}`)
    console.log(`${which} by owner (a Node internal counts for the package that called it):`)
    for (const line of timeByOwner(path.join(dir, file), 15)) console.log(`  ${line}`)
  }
}

type Alloc = { allocated: number; collections: number; scavenges: number; pauseUs: number; promoted: number }
function emptyAlloc() {
  return { allocated: 0, collections: 0, scavenges: 0, pauseUs: 0, promoted: 0, requests: 0 }
}
function addAlloc(total: ReturnType<typeof emptyAlloc>, sample: Alloc | undefined, requests: number) {
  if (!sample) return
  for (const key of ['allocated', 'collections', 'scavenges', 'pauseUs', 'promoted'] as const) total[key] += sample[key]
  total.requests += requests
}

/** Starts (first call) or stops (second call, resolving to what it counted) a server's allocation probe. */
async function probe(child: ChildProcess, which: 'app' | 'bare'): Promise<Alloc | undefined> {
  const file = path.join(work, `alloc-${which}.json`)
  const stopping = probing.has(child)
  if (stopping) probing.delete(child)
  else probing.add(child)
  rmSync(file, { force: true })
  child.kill('SIGUSR2')
  if (!stopping) return undefined
  for (let attempt = 0; attempt < 100 && !existsSync(file); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Alloc) : undefined
}

/** The statements the app runs for each URL and its answer, recorded from an in-process server on the same data. */
async function recordPlan() {
  const statements: { sql: string; parameters: unknown[] }[] = []
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 })
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') statements.push({ sql: event.query.sql, parameters: [...event.query.parameters] })
    },
  })
  const server = await startTestServer(db, { env: { NODE_ENV: 'production' } })
  const urls = [
    trpcBatchUrl([['catalog.search', {}]]),
    trpcBatchUrl([['catalog.course', { id: await sampleCourseId(db) }]]),
  ]
  const recorded: Record<string, { statements: typeof statements; body: unknown }> = {}
  try {
    for (const url of urls) {
      await fetch(server.baseUrl + url) // warm (first-use caches)
      statements.length = 0
      const response = await fetch(server.baseUrl + url)
      recorded[url] = { statements: [...statements], body: await response.json() }
    }
  } finally {
    await server.stop()
    await db.destroy()
  }
  return recorded
}

async function ready(port: number) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/livez`)
      if (response.status < 500) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`server on ${port} did not start`)
}

function rssMiB(child: ChildProcess): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

/** User + system CPU time of a child so far (or the system part alone), in ms (from /proc; Linux). */
function cpuMs(child: ChildProcess, part: 'all' | 'system' = 'all'): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    const ticks = (part === 'all' ? Number(fields[11]) : 0) + Number(fields[12])
    return (ticks * 1000) / 100 // USER_HZ is 100 on Linux
  } catch {
    return 0
  }
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}
