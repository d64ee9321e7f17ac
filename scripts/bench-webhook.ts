// The Stripe webhook under load on PostgreSQL: `npm run bench:webhook [-- --members 40 --concurrency 20]`.
// A fresh database (on --database-url, else TEST_DATABASE_URL, else the local server) gets members with card
// subscriptions made through the fake Stripe; its test clock then runs them through trial reminders, first charges,
// renewals, a failed renewal and cancellations, and the events it would send (plus 20% redeliveries, shuffled) go
// to the real server's POST /api/stripe/webhook, signed, with `concurrency` deliveries in flight at once.
// Prints the latency percentiles of those deliveries. Not a test: the numbers depend on the machine.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { migrateToLatest } from '../db/migrate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { openDatabase } from '../src-server/kernel/db.ts'
import { defaultPayments } from '../src-server/payments/config.ts'
import { createStripeApi } from '../src-server/payments/stripe.ts'
import { createServer } from '../src-server/server.ts'
import { createUser } from '../tests/support/factories.ts'
import { startFakeStripe } from '../tests/support/fake-stripe.ts'
import { adminQuery, databaseUrlFor } from '../tests/support/postgres-admin.ts'
import { shopCaller } from '../tests/support/shop.ts'
import { inFlight, shuffled } from './bench/load.ts'
import { percentile } from './bench/stats.ts'

const { values } = parseArgs({
  options: {
    members: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '20' },
    'database-url': { type: 'string' },
  },
})
const members = Number(values.members)
const concurrency = Number(values.concurrency)
const adminUrl = values['database-url'] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const DAY = 86_400

const name = `sf_bench_webhook_${randomBytes(4).toString('hex')}`
await adminQuery(adminUrl, `create database ${name}`)
const database = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, name), poolSize: 10 })
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-webhook-'))
const fake = await startFakeStripe()
try {
  await migrateToLatest(database.db)
  await seedDatabase(database.db)
  const payments = {
    ...defaultPayments,
    stripe: createStripeApi({ secretKey: fake.secretKey, apiUrl: fake.url }),
    stripeWebhookSecret: fake.webhookSecret,
  }
  const server = await createServer({
    env: {
      NODE_ENV: 'production',
      PORT: 0,
      HOST: '127.0.0.1',
      CLIENT_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
    },
    db: database.db,
    logger: false,
    payments,
  })
  fake.webhookUrl = `${await server.start()}/api/stripe/webhook`

  // Members with card subscriptions (checkout paid at the fake, its events delivered one by one).
  const plans = ['basic', 'pro', 'enterprise'] as const
  for (let i = 0; i < members; i++) {
    const user = await createUser(database.db)
    const caller = await shopCaller(database.db, user, payments)
    await caller.cart.add({ kind: 'plan', planId: plans[i % 3]!, billingCycle: i % 4 === 0 ? 'annual' : 'monthly' })
    const started = await caller.payments.start({ currency: 'USD', method: 'card' })
    if (started.method !== 'card') throw new Error('expected card')
    const session = fake.completeSession(new URL(started.url).pathname.split('/').pop()!)
    await fake.deliver('checkout.session.completed', session)
    await fake.flush()
    if (i % 5 === 0) fake.billing.failPayments(user.email) // some renewals will fail
    if (i % 7 === 0) fake.billing.update(session.subscription!, { cancel_at_period_end: 'true' })
  }
  fake.queued.length = 0

  // A few months of their lives, as the events Stripe would send.
  for (const days of [5, 3, 31, 31, 31]) fake.billing.advance(days * DAY)
  const events = fake.queued.splice(0).map((event) => fake.signedEvent(event.type, event.object, event.created))
  const redeliveries = events.filter((_, index) => index % 5 === 0)
  const deliveries = shuffled([...events, ...redeliveries])

  const statuses = new Map<number, number>()
  const { times: latencies, seconds } = await inFlight(deliveries, concurrency, async ({ payload, header }) => {
    const response = await fetch(fake.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    })
    await response.arrayBuffer()
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
  })
  const at = (q: number) => percentile(latencies, q * 100).toFixed(1)
  console.log(
    `Stripe webhook on PostgreSQL: ${deliveries.length} deliveries (${events.length} events + ${redeliveries.length} redeliveries, shuffled) for ${members} subscriptions, ${concurrency} concurrent`,
  )
  console.log(`statuses: ${[...statuses].map(([status, count]) => `${status} × ${count}`).join(', ')}`)
  console.log(
    `p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   p99 ${at(0.99)} ms   max ${at(1)} ms   (${(deliveries.length / seconds).toFixed(0)} deliveries/s)`,
  )
  await server.stop()
} finally {
  await fake.close()
  await database.close()
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`)
  await rm(dataDir, { recursive: true, force: true })
}
