// Cold start of `npm start` on an unchanged tree with an existing DATA_DIR: time from spawning `node scripts/start.ts`
// to the first `GET /readyz` 200, over several runs, with the server's own phase timings (its ready log line).
// Usage (after a build): node scripts/bench-start.ts [--runs N] [--keep-data DIR]
// The first start on a fresh DATA_DIR (create, migrate, seed) is measured once and reported apart.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, 'keep-data': { type: 'string' } } })
const runs = Number(values.runs)
const root = path.resolve(import.meta.dirname, '..')
const dataDir = values['keep-data'] ?? mkdtempSync(path.join(os.tmpdir(), 'bench-start-'))

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

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

async function startOnce(): Promise<Start> {
  const port = await freePort()
  const startedAt = performance.now()
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
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
  let readyMs = Number.NaN
  let cpu: number | undefined
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`)
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((response) => response.ok)
      .catch(() => false)
    if (ok) {
      readyMs = performance.now() - startedAt
      cpu = cpuMs(child.pid)
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  child.kill('SIGTERM')
  await exited
  const ready = output
    .split('\n')
    .filter((line) => line.includes('"storefront ready"'))
    .map((line) => JSON.parse(line) as { startupMs: number; phases?: Record<string, number> })[0]
  return {
    readyMs: Math.round(readyMs),
    cpuMs: cpu,
    startupMs: ready?.startupMs,
    phases: ready?.phases,
    buildSkipped: output.includes('Build is up to date'),
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
} finally {
  if (!values['keep-data']) rmSync(dataDir, { recursive: true, force: true })
}
