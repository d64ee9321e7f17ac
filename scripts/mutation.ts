// `npm run test:mutation [-- module ...]`: StrykerJS over the modules that decide money and access, one module at a
// time (each well under 30 minutes on 2 cores), then one score line per module and one overall line.
// A module lists the files to mutate and the test files that exercise them (Stryker reruns, per mutant, only the
// tests that executed it). HTML and JSON reports land in reports/mutation/<module>.{html,json} (git-ignored).
import { spawnSync } from 'node:child_process'
import { existsSync, globSync, readFileSync, writeFileSync } from 'node:fs'

type Module = { mutate: string[]; tests: string[] }

/** An integration test file by its name; they are grouped in folders by the server folder they test. */
const test = (name: string) => {
  const [found] = globSync(`tests/integration/*/${name}.test.ts`)
  if (!found) throw new Error(`no integration test named ${name}`)
  return found
}

export const MODULES: Record<string, Module> = {
  'payments-events': {
    mutate: ['src-server/flows/apply-stripe-event.ts', 'src-server/payments/event-outcome.ts'],
    tests: [
      ...['payments', 'stripe-webhook-foreign', 'one-live-subscription', 'stripe-event-rules'].map(test),
      'tests/unit/readme-operator.test.ts',
    ],
  },
  'payments-checkout-session': {
    mutate: ['src-server/flows/checkout-session.ts'],
    tests: [
      'tests/unit/checkout-session.test.ts',
      ...['payments', 'stripe-webhook-foreign', 'stripe-event-rules'].map(test),
    ],
  },
  'payments-webhook': {
    mutate: ['src-server/http/stripe-webhook.ts'],
    // database-outage: the webhook's 503 during an outage (the other 5xx and the follow-up are in -foreign).
    tests: ['payments', 'stripe-webhook-foreign', 'stripe-event-rules', 'database-outage'].map(test),
  },
  'payments-subscriptions': {
    mutate: ['src-server/flows/stripe-subscription-events.ts', 'src-server/flows/membership.ts'],
    tests: [
      'membership',
      'subscription-events-order',
      'one-live-subscription',
      'stripe-event-rules',
      'subscription-event-rules',
      'payments',
      'service-order-billing',
      'stripe-webhook-foreign',
      'stripe-refunds-disputes-tax-and-expiry',
    ].map(test),
  },
  'payments-checkout': {
    mutate: [
      'src-server/flows/start-checkout.ts',
      'src-server/flows/confirm-checkout.ts',
      'src-server/flows/abandoned-checkouts.ts',
      'src-server/payments/bank-details.ts',
      'src-server/flows/bank-transfer-mail.ts',
      'src-server/payments/instructions.ts',
      'src-server/flows/payment-options.ts',
      'src-server/payments/config.ts',
    ],
    // checkout-rules: the rules one by one (issue 19); free-enrolment: a free cart skips the rails;
    // stripe-refunds-disputes-tax-and-expiry: Stripe Tax asked for (STRIPE_TAX) and the 24 h expiry through the job queue.
    tests: [
      'payments',
      'orphan-orders',
      'order-rules',
      'checkout-rules',
      'free-enrolment',
      'stripe-refunds-disputes-tax-and-expiry',
    ].map(test),
  },
  'orders-transitions': {
    mutate: [
      'src-server/orders/transitions.ts',
      'src-server/orders/lock.ts',
      'src-server/flows/pay-order.ts',
      'src-server/flows/staff-order-actions.ts',
      'src-server/orders/pending.ts',
    ],
    tests: [
      'order-transitions',
      'admin-orders',
      'order-rules',
      'order-money-rules',
      'payments',
      'orphan-orders',
      'stripe-refunds-disputes-tax-and-expiry',
    ].map(test),
  },
  'orders-core': {
    mutate: [
      'src-server/orders/create.ts',
      'src-server/orders/repository.ts',
      'src-server/orders/renewal.ts',
      'src-server/flows/free-enrolment.ts',
      'src-server/orders/seller.ts',
      'src-server/orders/buyer.ts',
    ],
    // cart-order: the cart's pending order; order-history: the read side; orphan-orders: the Resume, Cancel and
    // expiry look-ups (findBuyerOrder, findOrderForStaff, listAbandonedCardOrders) and reuse through checkout.
    tests: [
      'tests/unit/seller.test.ts',
      ...[
        'payments',
        'free-enrolment',
        'membership-renewals',
        'order-rules',
        'cart-order',
        'order-history',
        'orphan-orders',
      ].map(test),
    ],
  },
  'orders-refunds': {
    mutate: [
      ...[
        'src-server/orders/refunds.ts',
        'src-server/orders/refund-requests.ts',
        'src-server/orders/refund-reads.ts',
        'src-server/orders/refund-mail.ts',
        'src-server/flows/disputes.ts',
      ],
      'src-server/flows/stripe-after-purchase.ts',
      'src-server/flows/stripe-refunds.ts',
    ],
    // stripe-refunds-disputes-tax-and-expiry and stripe-webhook-foreign: a lost dispute and a full dashboard refund of a plan.
    tests: [
      'refunds',
      'refund-rules',
      'refund-requests-disputes',
      'stripe-refunds-disputes-tax-and-expiry',
      'stripe-webhook-foreign',
    ].map(test),
  },
  'orders-documents': {
    mutate: [
      'src-server/orders/invoices.ts',
      'src-server/orders/documents.ts',
      'src-server/orders/numbering.ts',
      'src-server/orders/subscription-invoices.ts',
      'src-server/orders/receipt.ts',
      'src-server/http/order-documents.ts',
      'src-server/orders/document-pdf.ts',
    ],
    // The files written for these rules, with exact values: invoice-rules (numbers, invoices, credit notes,
    // subscription invoices, who reads them), unit document-pdf (the drawn PDF), document-downloads (the route),
    // order-receipts (the e-mail). The payment and refund suites that also issue documents were on the list in stop
    // 25's first measurement: every mutant that broke issuing then hung a payment flow until Stryker's timeout.
    tests: [
      'tests/unit/document-pdf.test.ts',
      ...['invoices', 'invoice-rules', 'document-downloads', 'order-receipts'].map(test),
    ],
  },
  'admin-orders': {
    mutate: ['src-server/routers/admin/orders.ts'],
    // stripe-refunds-disputes-tax-and-expiry: staff assign the lines of a partial refund made in Stripe's dashboard.
    tests: [
      'admin-orders',
      'order-rules',
      'admin-authorization',
      'refunds',
      'stripe-refunds-disputes-tax-and-expiry',
    ].map(test),
  },
  // Access, cart, session, roles, learning, service orders and subscription state (issue 19, second half).
  cart: {
    mutate: ['src-server/cart/lines.ts', 'src-server/cart/repository.ts'],
    // cart-after-order: what an order bought leaves the cart, and a cancelled order's lines come back.
    tests: ['cart', 'cart-after-order'].map(test),
  },
  'auth-session': {
    mutate: ['src-server/auth/session.ts'],
    tests: ['auth', 'session-http'].map(test),
  },
  roles: {
    mutate: ['src-server/trpc/init.ts', 'src-shared/roles.ts'],
    // error-exposure, nul-input, database-outage: the base procedure's error shape, NUL refusal and a session lookup
    // that failed; admin-team: the team is every staff role.
    tests: [
      'tests/unit/auth-shared.test.ts',
      ...['admin-authorization', 'error-exposure', 'nul-input', 'database-outage', 'admin-team'].map(test),
    ],
  },
  access: {
    mutate: [
      'src-server/access/courses.ts',
      'src-server/flows/grant-paid-order.ts',
      'src-server/flows/lesson-access.ts',
      'src-server/subscriptions/premium.ts',
    ],
    tests: ['access', 'access-ledger', 'learning-access'].map(test),
  },
  'subscription-state': {
    mutate: ['src-server/subscriptions/state.ts'],
    // subscription-state: each rule with exact instants (same-instant snapshots, ends, past due, reopening a lapse).
    tests: ['membership', 'subscription-events-order', 'subscription-state'].map(test),
  },
  learning: {
    mutate: ['src-server/flows/save-progress.ts', 'src-server/learning/completion.ts'],
    tests: ['learning-progress'].map(test),
  },
  'service-order-transitions': {
    mutate: ['src-server/service-orders/transitions.ts'],
    tests: ['service-orders'].map(test),
  },
}

type MutantStatus = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'CompileError' | 'RuntimeError' | 'Ignored'
type Position = { line: number; column: number }
type Mutant = {
  status: MutantStatus
  killedBy?: string[]
  static?: boolean
  statusReason?: string
  mutatorName: string
  replacement?: string
  location: { start: Position; end: Position }
}
type Report = {
  files: Record<string, { mutants: Mutant[] }>
  testFiles?: Record<string, { tests: { id: string }[] }>
}

/**
 * Stryker's score: killed (and timed-out) mutants of all valid ones; mutants no test reaches count as survivors.
 * With `without` (test file names), a mutant only those files kill counts as survived: the suite's score before
 * they were written (exact when the run had STRYKER_DISABLE_BAIL=1, so `killedBy` lists every killing test).
 */
function count(report: Report, without: string[] = []) {
  const excluded = new Set<string>()
  for (const [path, file] of Object.entries(report.testFiles ?? {})) {
    if (without.some((name) => path.includes(name))) for (const { id } of file.tests) excluded.add(id)
  }
  let killed = 0
  let valid = 0
  for (const file of Object.values(report.files)) {
    for (const { status, killedBy = [] } of file.mutants) {
      const killedOnlyByExcluded =
        status === 'Killed' && killedBy.length > 0 && killedBy.every((id) => excluded.has(id))
      if ((status === 'Killed' && !killedOnlyByExcluded) || status === 'Timeout') killed++
      if (status === 'Killed' || status === 'Timeout' || status === 'Survived' || status === 'NoCoverage') valid++
    }
  }
  return { killed, valid }
}

const sameMutant = (a: Mutant, b: Mutant) =>
  a.mutatorName === b.mutatorName &&
  a.replacement === b.replacement &&
  JSON.stringify(a.location) === JSON.stringify(b.location)

/**
 * Stryker's Vitest runner switches a mutant on after the test files have imported the code (stryker-js #6144, #6209),
 * so a mutant of an import-time value (a module-level constant, a table built at load) is never on and always
 * "survives". Those survivors run again here under Stryker's command runner: one fresh `vitest run` of the module's
 * test files per mutant, with the mutant on from the start. Their verdicts replace the first pass's in the report.
 */
function runStaticPass(name: string, tests: string[], report: Report, reportPath: string): boolean {
  const survivors = Object.entries(report.files).flatMap(([file, { mutants }]) =>
    mutants.filter((mutant) => mutant.static && mutant.status === 'Survived').map((mutant) => ({ file, mutant })),
  )
  if (survivors.length === 0) return true
  console.log(`\n=== ${name}: ${survivors.length} import-time (static) survivor(s), each run again in a fresh process`)
  // A range per survivor (report columns are 1-based, Stryker's range columns 0-based); a range may take in a few
  // more mutants, whose verdicts are simply not used.
  const ranges = survivors.map(
    ({ file, mutant: { location: l } }) =>
      `${file}:${l.start.line}:${l.start.column - 1}-${l.end.line}:${l.end.column}`,
  )
  const staticName = `${name}-static`
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', '--mutate', ranges.join(',')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      STRYKER_MODULE: staticName,
      STRYKER_STATIC_PASS: '1',
      STRYKER_TESTS: process.env.MUTATION_TESTS ?? tests.join(','),
    },
  })
  const staticPath = `reports/mutation/${staticName}.json`
  if (run.status !== 0 || !existsSync(staticPath)) {
    console.error(`${name}: the static pass failed (exit ${run.status})`)
    return false
  }
  const second = JSON.parse(readFileSync(staticPath, 'utf8')) as Report
  let killed = 0
  for (const { file, mutant } of survivors) {
    const verdict = second.files[file]?.mutants.find((other) => sameMutant(other, mutant))
    if (verdict?.status === 'Killed' || verdict?.status === 'Timeout') {
      mutant.status = verdict.status
      mutant.statusReason = `static pass (fresh process): ${verdict.statusReason ?? verdict.status}`
      killed++
    }
  }
  writeFileSync(reportPath, JSON.stringify(report))
  console.log(`${name}: static pass killed ${killed} of ${survivors.length}`)
  return true
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

const baselineExclude = process.env.MUTATION_BASELINE_EXCLUDE?.split(',').filter(Boolean) ?? []
const results: [string, { killed: number; valid: number }][] = []
const baselines: [string, { killed: number; valid: number }][] = []
let failed = false
for (const name of names) {
  const { mutate, tests } = MODULES[name]!
  const started = Date.now()
  console.log(`\n=== ${name}: ${mutate.length} file(s), ${tests.length} test file(s)`)
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', '--mutate', mutate.join(',')], {
    stdio: 'inherit',
    // MUTATION_TESTS overrides the module's test list (a quicker, partial measurement: a lower bound).
    env: { ...process.env, STRYKER_MODULE: name, STRYKER_TESTS: process.env.MUTATION_TESTS ?? tests.join(',') },
  })
  const reportPath = `reports/mutation/${name}.json`
  if (run.status !== 0 || !existsSync(reportPath)) {
    console.error(`${name}: Stryker failed (exit ${run.status})`)
    failed = true
    continue
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report
  if (!process.env.MUTATION_SKIP_STATIC && !runStaticPass(name, tests, report, reportPath)) failed = true
  const counts = count(report)
  results.push([name, counts])
  if (baselineExclude.length > 0) baselines.push([name, count(report, baselineExclude)])
  console.log(`${name}: done in ${Math.round((Date.now() - started) / 1000)} s`)
}

console.log('')
for (const [name, counts] of baselines) console.log(line(`${name} without ${baselineExclude.join(', ')}: `, counts))
for (const [name, counts] of results) console.log(line(`${name}: `, counts))
const total = results.reduce((sum, [, c]) => ({ killed: sum.killed + c.killed, valid: sum.valid + c.valid }), {
  killed: 0,
  valid: 0,
})
if (results.length > 0) console.log(line('', total))
else console.log('mutation score: no module completed')
process.exit(failed ? 1 : 0)
