// `npm test`: lint, type-check and build, then the Vitest run (PGlite and, with TEST_DATABASE_URL, PostgreSQL) and
// the Playwright run at the same time (decision 0049). Neither phase keeps both cores busy on its own: Vitest waits
// on PostgreSQL, child processes and timers, Playwright on the browser and the server. Vitest runs at a lower CPU
// priority (nice 10), so the browser and the end-to-end server, whose tests wait with timeouts, get the CPU first,
// and Vitest's output is held back and printed whole when it ends, so neither log is interleaved with the other.
// TEST_SEQUENTIAL=1 runs the phases one after the other (as `npm test` did before); TEST_UNIT_ARGS and TEST_E2E_ARGS
// (split on spaces) are passed on to Vitest and Playwright, e.g. TEST_E2E_ARGS=--reporter=json. Exits non-zero when
// any phase fails.
import { spawn } from 'node:child_process'
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

/** Runs `npm run <script>`; resolves with its exit code. `logFile`: its output goes there instead of the terminal. */
function run(script: string, options: { logFile?: string; nice?: number } = {}): Promise<number> {
  const since = Date.now()
  const output = options.logFile ? openSync(options.logFile, 'w') : 'inherit'
  const extra = (process.env[EXTRA_ARGS[script] ?? ''] ?? '').split(' ').filter(Boolean)
  const args = ['run', script, ...(extra.length > 0 ? ['--', ...extra] : [])]
  const child = spawn('npm', args, { cwd: root, stdio: ['ignore', output, output] })
  if (options.nice && child.pid) {
    try {
      os.setPriority(child.pid, options.nice) // the workers it starts later inherit it
    } catch {
      // not allowed here: run at the normal priority
    }
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      timings.push(`${script}: ${seconds(since)}${code === 0 ? '' : ` (failed: ${signal ?? `exit ${code}`})`}`)
      resolve(code ?? 1)
    })
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

for (const script of ['lint', 'typecheck', 'build']) {
  if ((await run(script)) !== 0) {
    summary(true)
    process.exit(1)
  }
}

let codes: number[]
if (sequential) {
  const unit = await run('test:unit')
  codes = [unit, unit === 0 ? await run('test:e2e') : 1]
} else {
  const logDir = path.join(root, '.test-logs')
  mkdirSync(logDir, { recursive: true })
  const unitLog = path.join(logDir, 'vitest.log')
  console.log(`Vitest runs beside Playwright; its output follows when it ends (and is in ${unitLog}).`)
  const unit = run('test:unit', { logFile: unitLog, nice: 10 }).then((code) => {
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
