// Starts the built server for the end-to-end tests on a fresh PostgreSQL database (E2E_DATABASE_URL, set by
// playwright.config.ts). The server migrates and seeds it on start; the tests' fixtures use it directly.
// Its whole log (info and up) goes to E2E_LOG_FILE, and the secrets it is given start E2E_SECRETS_FILE, which the
// tests' fixtures add to: the last check of the run (tests/e2e/log-audit.check.ts) looks for them in the log.
import { spawn } from 'node:child_process'
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { e2eDnsPort } from '../tests/support/dns-server.ts'
import { startFakeStripe } from '../tests/support/fake-stripe.ts'

const databaseUrl = process.env.E2E_DATABASE_URL
const logFile = process.env.E2E_LOG_FILE
const secretsFile = process.env.E2E_SECRETS_FILE
if (!databaseUrl || !logFile || !secretsFile) {
  throw new Error('E2E_DATABASE_URL, E2E_LOG_FILE or E2E_SECRETS_FILE is not set (run through `npm run test:e2e`)')
}
const target = new URL(databaseUrl)
const name = target.pathname.slice(1)
const admin = new URL(databaseUrl)
admin.pathname = '/postgres'

const client = new pg.Client({ connectionString: admin.toString() })
await client.connect()
await client.query(`drop database if exists ${name} with (force)`)
await client.query(`create database ${name}`)
await client.end()

const port = process.env.E2E_PORT ?? '4321'
// Card payments go to the local fake Stripe; its hosted page's Pay button sends the signed webhook here.
const fakeStripe = await startFakeStripe({ webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook` })

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'production',
  PORT: process.env.E2E_PORT ?? '4321',
  HOST: '127.0.0.1',
  // The log audit reads the requests (info); benchmarks starting this server (scripts/built-server.ts) ask for less.
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
  CLIENT_DIR: path.resolve('dist/client'),
  DATABASE_URL: databaseUrl,
  DATA_DIR: path.resolve('.e2e-data', name),
  PUBLIC_URL: `http://127.0.0.1:${process.env.E2E_PORT ?? '4321'}`,
  STRIPE_SECRET_KEY: fakeStripe.secretKey,
  STRIPE_WEBHOOK_SECRET: fakeStripe.webhookSecret,
  STRIPE_API_URL: fakeStripe.url,
  PAYPAL_ME_URL: 'https://paypal.me/skillforge-e2e',
  // Staff log in without a second factor unless they set one up (tests/e2e/two-factor.spec.ts does).
  STAFF_2FA: 'optional',
  // The clock specs (tests/e2e/*.clock.ts, run after every other spec) move the server's clock forward.
  TEST_CLOCK: 'on',
  // The SSO spec's OpenID provider runs on http://127.0.0.1 (decision 0062).
  SSO_HTTP_ISSUERS: 'loopback',
  // TXT checks (decisions 0062, 0063) ask a local DNS server that the SSO spec starts on this port; none otherwise.
  DNS_SERVERS: `127.0.0.1:${e2eDnsPort(port)}`,
  // The webhooks spec's receiver listens on 127.0.0.1, which production otherwise refuses (decision 0061).
  WEBHOOKS_ALLOW_PRIVATE: 'on',
  // Each test presents a client address of its own in X-Forwarded-For (tests/e2e/fixtures.ts): the limits per address
  // are then one visitor's, not shared by the whole run. Production trusts only the proxies it is told of.
  TRUST_PROXY: '127.0.0.1',
  // Live chat staffed at any hour, so its spec runs whatever the time (decision 0099; the hours' rule has unit tests).
  LIVE_CHAT_HOURS: 'Mon-Sun 00:00-24:00',
}

// A fresh log and list of secrets for each run.
mkdirSync(path.dirname(logFile), { recursive: true })
const secrets = [env.ADMIN_PASSWORD, fakeStripe.secretKey, fakeStripe.webhookSecret].filter(Boolean)
writeFileSync(secretsFile, secrets.map((secret) => `${secret}\n`).join(''))
const log = createWriteStream(logFile)

const child = spawn(process.execPath, ['dist/server/src-server/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
child.stdout.pipe(log, { end: false })
child.stderr.pipe(log, { end: false })
// Warnings and crashes stay visible in the test run's output too.
child.stderr.pipe(process.stderr)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('close', (code) => {
  void fakeStripe.close()
  log.end(() => process.exit(code ?? 0))
})
