import { defineConfig, devices } from '@playwright/test'

// The built server is started by the test run on a fresh database (scripts/e2e-server.ts).
const port = Number(process.env.E2E_PORT ?? 4321)
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (process.env.PLAYWRIGHT_BUNDLED_CHROMIUM ? undefined : '/usr/bin/chromium')

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node --import tsx scripts/e2e-server.ts`,
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { E2E_PORT: String(port) },
  },
})
