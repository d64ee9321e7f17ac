// `npm run test:mutation [-- module ...]`: StrykerJS over the modules that decide money and access, one module at a
// time (each well under 30 minutes on 2 cores), then one score line per module and one overall line.
// A module lists the files to mutate and the test files that exercise them (Stryker reruns, per mutant, only the
// tests that executed it). HTML and JSON reports land in reports/mutation/<module>.{html,json} (git-ignored).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'

type Module = { mutate: string[]; tests: string[] }

export const MODULES: Record<string, Module> = {
  'orders-transitions': {
    mutate: [
      'src-server/orders/transitions.ts',
      'src-server/orders/lock.ts',
      'src-server/orders/pay.ts',
      'src-server/orders/staff.ts',
      'src-server/orders/pending.ts',
    ],
    tests: [
      'tests/integration/order-transitions.test.ts',
      'tests/integration/payments.test.ts',
      'tests/integration/admin-orders.test.ts',
      'tests/integration/orphan-orders.test.ts',
    ],
  },
  // Access, cart, session, roles, learning, service orders and subscription state (issue 19, second half).
  cart: {
    mutate: ['src-server/cart/lines.ts', 'src-server/cart/repository.ts'],
    tests: ['tests/integration/cart.test.ts'],
  },
  'auth-session': {
    mutate: ['src-server/auth/session.ts'],
    tests: ['tests/integration/auth.test.ts', 'tests/integration/session-http.test.ts'],
  },
  roles: {
    mutate: ['src-server/trpc/init.ts', 'src-shared/roles.ts'],
    tests: ['tests/integration/admin-authorization.test.ts', 'tests/unit/auth-shared.test.ts'],
  },
  access: {
    mutate: [
      'src-server/access/courses.ts',
      'src-server/access/grants.ts',
      'src-server/access/lessons.ts',
      'src-server/access/premium.ts',
    ],
    tests: [
      'tests/integration/access.test.ts',
      'tests/integration/access-ledger.test.ts',
      'tests/integration/learning-access.test.ts',
    ],
  },
  'subscription-state': {
    mutate: ['src-server/access/subscription-state.ts'],
    tests: ['tests/integration/membership.test.ts', 'tests/integration/subscription-events-order.test.ts'],
  },
  learning: {
    mutate: ['src-server/learning/progress.ts', 'src-server/learning/completion.ts'],
    tests: ['tests/integration/learning-progress.test.ts'],
  },
  'service-order-transitions': {
    mutate: ['src-server/service-orders/transitions.ts'],
    tests: ['tests/integration/service-orders.test.ts'],
  },
}

type MutantStatus = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'CompileError' | 'RuntimeError' | 'Ignored'
type Report = { files: Record<string, { mutants: { status: MutantStatus }[] }> }

/** Stryker's score: killed (and timed-out) mutants of all valid ones; mutants no test reaches count as survivors. */
function count(report: Report) {
  let killed = 0
  let valid = 0
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      if (status === 'Killed' || status === 'Timeout') killed++
      if (status === 'Killed' || status === 'Timeout' || status === 'Survived' || status === 'NoCoverage') valid++
    }
  }
  return { killed, valid }
}

const line = (label: string, { killed, valid }: { killed: number; valid: number }) =>
  `${label}mutation score ${valid === 0 ? 100 : Math.floor((killed / valid) * 1000) / 10}% (killed ${killed} of ${valid})`

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'))
const unknown = asked.filter((name) => !(name in MODULES))
if (unknown.length > 0) {
  console.error(`Unknown module(s): ${unknown.join(', ')}. Modules: ${Object.keys(MODULES).join(', ')}`)
  process.exit(2)
}
const names = asked.length > 0 ? asked : Object.keys(MODULES)

const results: [string, { killed: number; valid: number }][] = []
let failed = false
for (const name of names) {
  const { mutate, tests } = MODULES[name]!
  const started = Date.now()
  console.log(`\n=== ${name}: ${mutate.length} file(s), ${tests.length} test file(s)`)
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', '--mutate', mutate.join(',')], {
    stdio: 'inherit',
    env: { ...process.env, STRYKER_MODULE: name, STRYKER_TESTS: tests.join(',') },
  })
  const reportPath = `reports/mutation/${name}.json`
  if (run.status !== 0 || !existsSync(reportPath)) {
    console.error(`${name}: Stryker failed (exit ${run.status})`)
    failed = true
    continue
  }
  const counts = count(JSON.parse(readFileSync(reportPath, 'utf8')) as Report)
  results.push([name, counts])
  console.log(`${name}: done in ${Math.round((Date.now() - started) / 1000)} s`)
}

console.log('')
for (const [name, counts] of results) console.log(line(`${name}: `, counts))
const total = results.reduce((sum, [, c]) => ({ killed: sum.killed + c.killed, valid: sum.valid + c.valid }), {
  killed: 0,
  valid: 0,
})
console.log(line('', total))
process.exit(failed ? 1 : 0)
