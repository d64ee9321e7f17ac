import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { e2eChromiumPath, HEADLESS_CHROMIUM_ARGS } from './tests/support/chromium.ts'

// The built server is started by the test run on a fresh PostgreSQL database (scripts/e2e-server.ts), which
// the tests' fixtures also reach directly. TEST_DATABASE_URL names the server; the local one by default.
const port = Number(process.env.E2E_PORT ?? 4321)
const adminUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
adminUrl.pathname = `/sf_e2e_${port}`
// Set here so the web server and the test workers (started after the config loads) both see it.
process.env.E2E_DATABASE_URL = adminUrl.toString()
// The server's whole log and the secrets the run used (the server's own, then what the fixtures saw typed or sent),
// which the last check of a run, tests/e2e/log-audit.check.ts, compares.
process.env.E2E_LOG_FILE = path.resolve(`.e2e-data/server-${port}.log`)
process.env.E2E_SECRETS_FILE = path.resolve(`.e2e-data/secrets-${port}.txt`)
// The owner account the server creates at start (ADMIN_EMAIL/ADMIN_PASSWORD); the admin tests log in with it.
process.env.E2E_ADMIN_EMAIL ??= 'owner@e2e.test'
process.env.E2E_ADMIN_PASSWORD ??= 'e2e-owner-password'

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  // No retries locally; one in CI, and a test that passes only on its retry is named by the flaky reporter.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['./tests/support/flaky-reporter.ts']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Recording a trace (a screencast and DOM snapshots of every action) for every test took ~40 % of the run's browser
    // CPU on a 2-core machine (decision 0088). CI retries a failed test once, with a trace, and keeps it; a local run
    // has no retries, so it records and keeps the failures' traces as before.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: e2eChromiumPath(),
      args: HEADLESS_CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'e2e', testIgnore: /\.(check|clock)\.ts$/ },
    // Specs that move the server's clock forward (TEST_CLOCK): after the others, which then cannot be disturbed.
    // The links mailed by then, recorded before the clock specs age them out of mail_outbox (retention).
    { name: 'mail-snapshot', testMatch: /mail-snapshot\.check\.ts$/, dependencies: ['e2e'] },
    { name: 'clock', testMatch: /\.clock\.ts$/, dependencies: ['mail-snapshot'] },
    // After every other test (and only when they all passed): the log holds no secret the run used.
    { name: 'log-audit', testMatch: /log-audit\.check\.ts$/, dependencies: ['clock'] },
  ],
  webServer: {
    command: `node --import tsx scripts/e2e-server.ts`,
    url: `http://127.0.0.1:${port}/readyz`,
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      E2E_PORT: String(port),
      E2E_DATABASE_URL: adminUrl.toString(),
      E2E_LOG_FILE: process.env.E2E_LOG_FILE,
      E2E_SECRETS_FILE: process.env.E2E_SECRETS_FILE,
      ADMIN_EMAIL: process.env.E2E_ADMIN_EMAIL,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
    },
  },
})
