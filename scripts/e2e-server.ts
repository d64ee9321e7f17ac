// Starts the built server for the end-to-end tests on a fresh PostgreSQL database (E2E_DATABASE_URL, set by
// playwright.config.ts). The server migrates and seeds it on start; the tests' fixtures use it directly.
import { spawn } from 'node:child_process'
import path from 'node:path'
import pg from 'pg'
import { startFakeStripe } from '../tests/support/fake-stripe.ts'

const databaseUrl = process.env.E2E_DATABASE_URL
if (!databaseUrl) throw new Error('E2E_DATABASE_URL is not set (run through `npm run test:e2e`)')
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
  LOG_LEVEL: 'warn',
  CLIENT_DIR: path.resolve('dist/client'),
  DATABASE_URL: databaseUrl,
  DATA_DIR: path.resolve('.e2e-data', name),
  PUBLIC_URL: `http://127.0.0.1:${process.env.E2E_PORT ?? '4321'}`,
  STRIPE_SECRET_KEY: fakeStripe.secretKey,
  STRIPE_WEBHOOK_SECRET: fakeStripe.webhookSecret,
  STRIPE_API_URL: fakeStripe.url,
  PAYPAL_ME_URL: 'https://paypal.me/skillforge-e2e',
}

const child = spawn(process.execPath, ['dist/server/src-server/main.js'], { env, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => {
  void fakeStripe.close()
  process.exit(code ?? 0)
})
