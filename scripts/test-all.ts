// `npm test`: lint and Panda's codegen, then the type-check beside the build, then the Vitest run (PGlite and, with
// TEST_DATABASE_URL, PostgreSQL) and the Playwright run at the same time (decisions 0049, 0087). Playwright is the
// longer test phase on a 2-core machine, so it starts as soon as the build is done; Vitest starts when both the build
// and the type-check are. Neither phase keeps both cores busy on its own: Vitest waits on PostgreSQL, child processes
// and timers, Playwright on the browser and the server. The type-check and Vitest run at a lower CPU priority
// (nice 10), so the build, the browser and the end-to-end server, whose tests wait with timeouts, get the CPU first,
// and Vitest's output is held back and printed whole when it ends, so neither log is interleaved with the other.
// The build's server compile (`build:compile`) only emits (`tsc --noCheck`, 3 s instead of 24 s): the type-check
// beside it covers the server, as `npm run build` checks it before compiling (decision 0088).
// The codegen runs once, before the two readers of its output; the route tree the build's router plugin checks is
// rewritten only when a route file changed, which the type-check would then fail on anyway.
// TEST_SEQUENTIAL=1 runs the phases one after the other; TEST_UNIT_ARGS and TEST_E2E_ARGS (split on spaces) are passed
// on to Vitest and Playwright, e.g. TEST_E2E_ARGS=--reporter=json. A failing lint, codegen, type-check or build stops
// everything at once; the two test phases run to their ends. Exits non-zero when any phase fails.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const sequential = process.env.TEST_SEQUENTIAL === '1'
const timings: string[] = []
const EXTRA_ARGS: Record<string, string> = { 'test:unit': 'TEST_UNIT_ARGS', 'test:e2e': 'TEST_E2E_ARGS' }
const started = Date.now()

function seconds(since: number) {
  return `${Math.round((Date.now() - since) / 1000)} s`
}

const running = new Set<ChildProcess>()

// glibc's malloc backs its heap and large blocks with transparent huge pages when asked (glibc 2.35+; elsewhere the
// variable is ignored). On a VM that hands idle memory back to its host, every fresh 4 KiB page costs a fault: with
// huge pages a sample of 28 Vitest files took 2.5 M faults → 0.7 M, 57–60 s → 45–47 s (decision 0087). Only the test
// processes get it; a GLIBC_TUNABLES already set is kept.
const childEnv = { ...process.env, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? 'glibc.malloc.hugetlb=1' }

/** Runs `npm run <script>`; resolves with its exit code. `logFile`: its output goes there instead of the terminal. */
function run(script: string, options: { logFile?: string; nice?: number } = {}): Promise<number> {
  const since = Date.now()
  const output = options.logFile ? openSync(options.logFile, 'w') : 'inherit'
  const extra = (process.env[EXTRA_ARGS[script] ?? ''] ?? '').split(' ').filter(Boolean)
  const args = ['run', script, ...(extra.length > 0 ? ['--', ...extra] : [])]
  // Its own process group, so that stopping it stops what it started (the browser, the test server, the workers).
  const child = spawn('npm', args, { cwd: root, env: childEnv, stdio: ['ignore', output, output], detached: true })
  running.add(child)
  if (options.nice && child.pid) {
    try {
      os.setPriority(child.pid, options.nice) // the workers it starts later inherit it
    } catch {
      // not allowed here: run at the normal priority
    }
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child)
      timings.push(`${script}: ${seconds(since)}${code === 0 ? '' : ` (failed: ${signal ?? `exit ${code}`})`}`)
      resolve(code ?? 1)
    })
  })
}

function stopAll() {
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll()
    process.exit(1)
  })
}

// Written by tests/support/flaky-reporter.ts: Playwright's failures, repeated at the very end of the log.
const playwrightSummary = path.join(root, '.test-logs', 'playwright-summary.txt')
rmSync(playwrightSummary, { force: true })

function summary(failed: boolean) {
  if (existsSync(playwrightSummary)) process.stdout.write(`\n${readFileSync(playwrightSummary, 'utf8')}`)
  console.log(`\nnpm test phases (${sequential ? 'one after the other' : 'unit ∥ e2e'}):`)
  for (const line of timings) console.log(`  ${line}`)
  console.log(`  total: ${seconds(started)}${failed ? ' (failed)' : ''}`)
}

/** Fails the whole command now: what still runs is stopped. */
function fail(): never {
  stopAll()
  summary(true)
  process.exit(1)
}

/** Runs a phase that the tests need (lint, codegen, type-check, build); a failing one ends the command. */
async function phase(script: string, options: { logFile?: string; nice?: number } = {}) {
  if ((await run(script, options)) !== 0) fail()
}

const logDir = path.join(root, '.test-logs')
mkdirSync(logDir, { recursive: true })
const unitLog = path.join(logDir, 'vitest.log')

await phase('lint')
await phase('codegen')
let codes: number[]
if (sequential) {
  await phase('typecheck:tsc')
  await phase('build:compile')
  const unit = await run('test:unit')
  codes = [unit, unit === 0 ? await run('test:e2e') : 1]
} else {
  const typecheck = phase('typecheck:tsc', { nice: 10 })
  await phase('build:compile')
  console.log(
    `Vitest runs beside Playwright once the type-check is done; its output follows when it ends (${unitLog}).`,
  )
  // The test phases run to their ends, so one log shows every failure of both.
  const unit = typecheck.then(async () => {
    const code = await run('test:unit', { logFile: unitLog, nice: 10 })
    console.log(`\n──── Vitest (${code === 0 ? 'passed' : 'FAILED'}) ────`)
    process.stdout.write(readFileSync(unitLog, 'utf8'))
    console.log('──── end of Vitest ────\n')
    return code
  })
  codes = await Promise.all([unit, run('test:e2e')])
}
const failed = codes.some((code) => code !== 0)
summary(failed)
process.exit(failed ? 1 : 0)
