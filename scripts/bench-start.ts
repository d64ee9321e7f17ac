// Cold start of `npm start` on an unchanged tree with an existing DATA_DIR: time from spawning `node scripts/start.ts`
// to the first `GET /readyz` 200, over several runs, with the server's own phase timings (its ready log line).
// Usage (after a build): node scripts/bench-start.ts [--runs N] [--keep-data DIR] [--memory SECONDS]
// The first start on a fresh DATA_DIR (create, migrate, seed) is measured once and reported apart.
// --memory S: one more start with `npm start`'s Node flags, then the resident memory of the embedded server (PGlite in
// the same process): after start, and after S seconds of load (10 keep-alive connections) on each catalogue request of
// bench:catalog and on the rendered home and catalogue pages; peak (VmHWM) and current (VmRSS). For issue 37's
// embedded default at 100k courses: `DATA_DIR=/tmp/sf-100k npm run db:generate -- --courses 100000`, then
// `node scripts/bench-start.ts --keep-data /tmp/sf-100k --runs 1 --memory 5`.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { freePort } from '../tests/support/free-port.ts'
import { catalogueRequests, trpcBatchUrl } from './bench/catalog-requests.ts'
import { runLoad, summarise } from './bench/load.ts'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'keep-data': { type: 'string' }, memory: { type: 'string' } },
})
const runs = Number(values.runs)
const root = path.resolve(import.meta.dirname, '..')
const dataDir = values['keep-data'] ?? mkdtempSync(path.join(os.tmpdir(), 'bench-start-'))

/**
 * CPU time (user + system, all threads) the process has used: on a busy machine the wall-clock figure mostly
 * measures the other processes; this is close to what a quiet machine would take. Linux only (/proc).
 */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10 // utime and stime, in 1/100 s ticks
  } catch {
    return undefined
  }
}

interface Start {
  readyMs: number
  cpuMs?: number
  startupMs?: number
  phases?: Record<string, number>
  buildSkipped: boolean
}

/** `npm start`'s Node flags (package.json), for the memory figures: the embedded default as a newcomer runs it. */
const START_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=50']

interface Launched {
  child: ChildProcess
  port: number
  readyMs: number
  cpuMs?: number
  output(): string
  stop(): Promise<unknown>
}

async function launch(nodeFlags: string[] = []): Promise<Launched> {
  const port = await freePort()
  const startedAt = performance.now()
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, 'scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`)
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((response) => response.ok)
      .catch(() => false)
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return {
    child,
    port,
    readyMs: Math.round(performance.now() - startedAt),
    cpuMs: cpuMs(child.pid),
    output: () => output,
    stop: () => {
      child.kill('SIGTERM')
      return exited
    },
  }
}

async function startOnce(): Promise<Start> {
  const server = await launch()
  await server.stop()
  const output = server.output()
  const ready = output
    .split('\n')
    .filter((line) => line.includes('"storefront ready"'))
    .map((line) => JSON.parse(line) as { startupMs: number; phases?: Record<string, number> })[0]
  return {
    readyMs: server.readyMs,
    cpuMs: server.cpuMs,
    startupMs: ready?.startupMs,
    phases: ready?.phases,
    buildSkipped: output.includes('Build is up to date'),
  }
}

/** Resident memory of a process, MiB: now (VmRSS) and its peak so far (VmHWM). Linux only (/proc). */
function residentMiB(pid: number | undefined): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
  return { now: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 }
}

/** --memory: the embedded server's resident memory after start and under each request's load. */
async function memoryUnderLoad(seconds: number) {
  const server = await launch(START_FLAGS)
  try {
    const base = `http://127.0.0.1:${server.port}`
    const mib = (value: number) => `${value.toFixed(0)} MiB`
    const atStart = residentMiB(server.child.pid)
    console.log(`\nmemory (npm start's flags ${START_FLAGS.join(' ')}): after start ${mib(atStart.now)}`)
    // A course of the catalogue's first page, for the detail request.
    const firstPage = (await fetch(`${base}${trpcBatchUrl([['catalog.search', {}]])}`).then((response) =>
      response.json(),
    )) as { result: { data: { items: { id: string }[] } } }[]
    const courseId = firstPage[0]?.result.data.items[0]?.id
    if (!courseId) throw new Error('the catalogue answered no course')
    const requests = [
      ...catalogueRequests(courseId),
      { name: 'home page (rendered)', path: '/' },
      { name: 'catalogue page (rendered)', path: '/courses' },
    ]
    console.log(
      `${'request'.padEnd(46)} ${'req/s'.padStart(7)} ${'errors'.padStart(7)} ${'RSS'.padStart(9)} ${'peak'.padStart(9)}`,
    )
    for (const request of requests) {
      const load = summarise([await runLoad(`${base}${request.path}`, 10, seconds)])
      if (server.child.exitCode !== null || server.child.signalCode !== null) {
        throw new Error(`the server died under ${request.name}:\n${server.output().split('\n').slice(-15).join('\n')}`)
      }
      const memory = residentMiB(server.child.pid)
      console.log(
        `${request.name.padEnd(46)} ${load.rps.toFixed(0).padStart(7)} ${String(load.errors).padStart(7)} ${mib(memory.now).padStart(9)} ${mib(memory.peak).padStart(9)}`,
      )
    }
    const end = residentMiB(server.child.pid)
    console.log(`peak resident memory ${mib(end.peak)}, ${mib(end.now)} at the end`)
  } finally {
    await server.stop()
  }
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!

try {
  const first = await startOnce()
  console.log(`first start (new DATA_DIR: create, migrate, seed): ${first.readyMs} ms to /readyz 200`)
  const results: Start[] = []
  for (let run = 1; run <= runs; run++) {
    const result = await startOnce()
    results.push(result)
    console.log(
      `restart ${run}: ${result.readyMs} ms to /readyz 200, ${result.cpuMs} ms of CPU (server start-up ${result.startupMs} ms: ${JSON.stringify(result.phases)})${result.buildSkipped ? '' : ' [BUILT]'}`,
    )
  }
  const ready = results.map((result) => result.readyMs)
  const cpu = results.map((result) => result.cpuMs ?? Number.NaN)
  console.log(
    `restart of an unchanged tree, existing DATA_DIR: median ${median(ready)} ms (min ${Math.min(...ready)}, max ${Math.max(...ready)}) to /readyz 200, median ${median(cpu)} ms of CPU, over ${runs} runs; load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`,
  )
  if (values.memory) await memoryUnderLoad(Number(values.memory))
} finally {
  if (!values['keep-data']) rmSync(dataDir, { recursive: true, force: true })
}
