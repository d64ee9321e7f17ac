// PostgreSQL stopped under load: `npm run chaos:postgres [-- --rounds 25 --workers 6 --outage-ms 1500]`.
// Starts a PRIVATE cluster (its own port and /tmp data; the shared server is never touched), runs the built server
// (`npm run build` first) on it, drives mixed shop and admin traffic, and `pg_ctl stop -m fast`s the cluster
// `rounds` times, restarting it each time. Prints process exits (goal 0), the answers while the database was down
// by status (goal: all 503) and the recovery time after each restart. Exits non-zero when a goal is missed.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openDatabase } from '../src-server/kernel/db.ts'
import { createSessionToken, createUser } from '../tests/support/factories.ts'
import { freePort } from '../tests/support/free-port.ts'
import { createPrivatePostgres } from './chaos/private-postgres.ts'

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '25' },
    workers: { type: 'string', default: '6' },
    'outage-ms': { type: 'string', default: '1500' },
    'up-ms': { type: 'string', default: '1500' },
  },
})
const ROUNDS = Number(args.rounds)
const WORKERS = Number(args.workers)
const OUTAGE_MS = Number(args['outage-ms'])
const UP_MS = Number(args['up-ms'])
const SERVER_ENTRY = path.resolve('dist/server/src-server/main.js')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

if (!existsSync(SERVER_ENTRY)) {
  console.error(`No built server at ${SERVER_ENTRY}: run \`npm run build\` first.`)
  process.exit(2)
}

type Phase = 'up' | 'stopping' | 'down' | 'starting' | 'recovering'
let phase: Phase = 'up'
const answers: Record<string, Map<string, number>> = {}
function count(bucket: string, status: string) {
  answers[bucket] ??= new Map()
  answers[bucket].set(status, (answers[bucket].get(status) ?? 0) + 1)
}

const cluster = await createPrivatePostgres()
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sf-chaos-app-'))
const httpPort = await freePort()
const baseUrl = `http://127.0.0.1:${httpPort}`
const admin = new pg.Client({ connectionString: cluster.url('postgres') })
await admin.connect()
await admin.query('create database storefront')
await admin.end()

let server = null as ChildProcess | null
let exits = 0
let serverLog = ''
function startServer() {
  server = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: cluster.url('storefront'),
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'error',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      // The admin traffic signs in with a session row, without a second factor.
      STAFF_2FA: 'optional',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (chunk: Buffer) => {
    serverLog = (serverLog + chunk.toString()).slice(-4000)
  }
  server.stdout!.on('data', keep)
  server.stderr!.on('data', keep)
  server.once('exit', (code, signal) => {
    if (stopping) return
    exits++
    console.error(`server exited (code ${code}, signal ${signal}); last output:\n${serverLog}`)
    startServer()
  })
}
let stopping = false

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, label: string) {
  const deadline = Date.now() + timeoutMs
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${label} not reached within ${timeoutMs} ms`)
    await sleep(50)
  }
}

startServer()
await waitUntil(async () => (await fetch(`${baseUrl}/readyz`)).status === 200, 120_000, 'server ready')

// A customer and a staff member with sessions, and a course to put in the cart.
const setup = await openDatabase({ databaseUrl: cluster.url('storefront'), poolSize: 1 })
const customerCookie = `session=${(await createSessionToken(setup.db, (await createUser(setup.db)).id)).token}`
const staff = await createUser(setup.db, { role: 'admin' })
const staffCookie = `session=${(await createSessionToken(setup.db, staff.id)).token}`
const course = await setup.db.selectFrom('courses').select('id').where('status', '=', 'published').executeTakeFirst()
await setup.close()
const courseId = course?.id ?? 'missing'

const json = (value: unknown) => encodeURIComponent(JSON.stringify(value))
const post = (body: unknown, cookie: string): RequestInit => ({
  method: 'POST',
  headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const operations: [string, RequestInit][] = [
  [`/trpc/catalog.search?input=${json({ search: 'design' })}`, {}],
  ['/trpc/catalog.categories', {}],
  [`/trpc/catalog.course?input=${json({ id: courseId })}`, {}],
  ['/trpc/services.list', {}],
  ['/trpc/auth.me', { headers: { cookie: customerCookie } }],
  ['/trpc/cart.list', { headers: { cookie: customerCookie } }],
  ['/trpc/cart.add', post({ kind: 'course', courseId }, customerCookie)],
  ['/trpc/cart.clear', post(null, customerCookie)],
  ['/trpc/profile.updateName', post({ firstName: 'Chaos', lastName: 'Monkey' }, customerCookie)],
  ['/trpc/admin.dashboard.summary', { headers: { cookie: staffCookie } }],
  ['/sitemap.xml', {}],
]

let loadRunning = true
async function worker(index: number) {
  for (let i = index; loadRunning; i++) {
    const [url, init] = operations[i % operations.length]!
    const startPhase = phase
    const status = await fetch(`${baseUrl}${url}`, { ...init, signal: AbortSignal.timeout(30_000) })
      .then(async (response) => {
        await response.arrayBuffer()
        return String(response.status)
      })
      .catch((error: Error) => `network error (${error.name})`)
    count(startPhase === phase ? phase : 'transition', status)
  }
}

const recoveries: number[] = []
const workers = Array.from({ length: WORKERS }, (_, index) => worker(index))
for (let round = 1; round <= ROUNDS; round++) {
  await sleep(UP_MS)
  phase = 'stopping'
  await cluster.stopFast()
  phase = 'down'
  await sleep(OUTAGE_MS)
  phase = 'starting'
  await cluster.start()
  phase = 'recovering'
  const restarted = performance.now()
  await waitUntil(async () => (await fetch(`${baseUrl}/trpc/catalog.categories`)).status === 200, 60_000, 'recovery')
  recoveries.push(performance.now() - restarted)
  phase = 'up'
  process.stdout.write(`round ${round}/${ROUNDS}: recovered in ${Math.round(recoveries.at(-1)!)} ms\n`)
}
loadRunning = false
await Promise.all(workers)

stopping = true
server?.kill('SIGTERM')
await new Promise((resolve) => (server?.exitCode === null ? server.once('exit', resolve) : resolve(null)))
await cluster.destroy()
rmSync(dataDir, { recursive: true, force: true })

const sorted = [...recoveries].sort((a, b) => a - b)
const pct = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)
const show = (bucket: string) =>
  [...(answers[bucket] ?? new Map()).entries()]
    .sort()
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ') || 'none'
const downStatuses = [...(answers.down ?? new Map()).keys()]
const upFailures = [...(answers.up ?? new Map()).keys()].filter((status) => !/^[234]/.test(status))

console.log('\nPostgreSQL stopped under load (pg_ctl stop -m fast on a private cluster)')
console.log(`  stops: ${ROUNDS}, load workers: ${WORKERS}, outage ${OUTAGE_MS} ms each`)
console.log(`  process exits: ${exits} (goal 0)`)
console.log(`  answers while the database was down: ${show('down')} (goal: all 503)`)
console.log(`  answers while it was up: ${show('up')}`)
console.log(
  `  answers while restarting / recovering / spanning a change: ${show('starting')} / ${show('recovering')} / ${show('transition')}`,
)
console.log(`  recovery after restart: median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pct(1)} ms`)
const ok = exits === 0 && downStatuses.every((status) => status === '503') && upFailures.length === 0
process.exit(ok ? 0 : 1)
