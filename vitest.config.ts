import os from 'node:os'
import { defineConfig } from 'vitest/config'

// Unit and integration tests run against PGlite always, and the integration tests against PostgreSQL too
// when TEST_DATABASE_URL is set (as CI sets it). Each test file gets a fresh database from a migrated template.
// Files and the tests in each run in a random order every time (issue 19: no test may lean on another's leftovers);
// the run prints its seed, and TEST_SEED=<seed> repeats an order.
const seed = Number(process.env.TEST_SEED ?? Math.floor(Math.random() * 1_000_000))
if (!process.env.VITEST_WORKER_ID) console.log(`test order: shuffled, seed ${seed} (TEST_SEED=${seed} repeats it)`)
const common = {
  // Staff need no second factor in tests unless a test asks (tests/integration/two-factor*.test.ts).
  // TEST_SEED reaches the workers too: tests that sample a large matrix pick their part with it (tests/support/seeded.ts).
  env: { STAFF_2FA: 'optional', TEST_SEED: String(seed) },
  // Generous bounds, not speed checks (those are benchmarks): beside Playwright on a busy 2-core machine a test that
  // takes 3 s alone has taken 20–40 s, and a file's set-up (a database and a whole server) over 60 s.
  testTimeout: 45_000,
  hookTimeout: 120_000,
  sequence: { shuffle: { files: true, tests: true }, seed },
}
/**
 * Test files that replace a module with vi.mock: a mock applies only to a module not loaded yet, so these get a module
 * registry of their own (Vitest's default isolation). Every other file shares its worker's registry with the files
 * before it (`isolate: false`): the server's ~500 modules are loaded once per worker instead of once per file, which
 * took 2.5–4.4 s of every file (957 s of a 1,735 s run, `npm test` on 2026-11-30); tests/support/file-state.ts puts
 * back what a file may change in the server's module state.
 */
const OWN_MODULES = ['tests/integration/auth/login-limits.test.ts']
const shared = { ...common, isolate: false, setupFiles: ['tests/support/file-state.ts'] }
const isolated = { ...common, isolate: true }
const projects = [
  {
    test: {
      ...shared,
      name: 'pglite',
      include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
      exclude: OWN_MODULES,
      globalSetup: ['tests/support/setup-pglite.ts'],
    },
  },
  {
    test: {
      ...isolated,
      name: 'pglite-isolated',
      include: OWN_MODULES,
      globalSetup: ['tests/support/setup-pglite.ts'],
    },
  },
]
if (process.env.TEST_DATABASE_URL) {
  projects.push(
    {
      test: {
        ...shared,
        name: 'postgres',
        include: ['tests/integration/**/*.test.ts'],
        exclude: OWN_MODULES,
        globalSetup: ['tests/support/setup-postgres.ts'],
      },
    },
    {
      test: {
        ...isolated,
        name: 'postgres-isolated',
        include: OWN_MODULES,
        globalSetup: ['tests/support/setup-postgres.ts'],
      },
    },
  )
}

// At least two workers, also on a 2-core machine (Vitest's default there is one): the files wait on PostgreSQL, child
// processes and timers, and `npm test` runs Vitest at a lower priority beside Playwright, so a second worker takes
// only the CPU the browser leaves, and both cores once Playwright has ended (decision 0049).
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS ?? Math.max(2, os.availableParallelism() - 1))

export default defineConfig({ test: { projects, pool: 'forks', maxWorkers } })
