// Course sales under load on PostgreSQL: `npm run bench:sale [-- --buyers 60 --concurrency 20]`.
// A fresh database (on --database-url, else TEST_DATABASE_URL, else the local server) gets creators with published
// courses (some taught with co-instructors at set percentages, one creator's bundle) and a 20 % coupon. Each buyer
// fills a cart over HTTP as the browser does (session cookie, tRPC), a third apply the coupon, and starts a card
// checkout: that request is timed. The fake Stripe then completes every Checkout Session, and the signed
// checkout.session.completed events (plus 20 % redeliveries, shuffled) go to the real server's POST /api/stripe/webhook
// with `concurrency` in flight: those deliveries are timed. It then checks what the money path stored and exits
// non-zero when a figure is wrong (an order not paid, a line's split not adding up, a ledger transaction not
// balancing, a sale credited twice). Not a test: the timings depend on the machine.
import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { flushCourseEvents } from '../src-server/analytics/counters.ts'
import { addCoInstructor } from '../src-server/creators/course-instructors.ts'
import { setCourseEarningShares } from '../src-server/flows/course-team-invites.ts'
import { openDatabase, poolOf } from '../src-server/kernel/db.ts'
import { defaultPayments } from '../src-server/payments/config.ts'
import { createStripeApi } from '../src-server/payments/stripe.ts'
import { seedBundle } from '../tests/support/bundles.ts'
import { createCreator } from '../tests/support/creator-courses.ts'
import { ownedCourse, type SoldCourse } from '../tests/support/earnings.ts'
import { callerAs, createSessionToken, createUser } from '../tests/support/factories.ts'
import { startFakeStripe } from '../tests/support/fake-stripe.ts'
import { startTestServer, trpcPost } from '../tests/support/http.ts'
import { adminQuery, databaseUrlFor } from '../tests/support/postgres-admin.ts'
import { inFlight, shuffled } from './bench/load.ts'
import { percentile } from './bench/stats.ts'

const { values } = parseArgs({
  options: {
    buyers: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '20' },
    'database-url': { type: 'string' },
    /** Print the statements of one paid webhook, most repeated first. */
    profile: { type: 'boolean', default: false },
  },
})
const buyers = Number(values.buyers)
const concurrency = Number(values.concurrency)
const adminUrl = values['database-url'] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** `work` over `items` with the run's `concurrency` in flight (scripts/bench/load.ts). */
const timedPool = <T>(items: readonly T[], work: (item: T) => Promise<void>) => inFlight(items, concurrency, work)

function report(label: string, { times, seconds }: { times: number[]; seconds: number }) {
  const at = (p: number) => percentile(times, p).toFixed(1)
  console.log(
    `${label.padEnd(34)} p50 ${at(50)} ms   p95 ${at(95)} ms   p99 ${at(99)} ms   max ${at(100)} ms   (${(times.length / seconds).toFixed(0)}/s, ${times.length} requests)`,
  )
}

/** A tRPC mutation over HTTP that must answer 200; returns its data. */
async function mutate(baseUrl: string, cookie: string, procedure: string, input: unknown) {
  const response = await trpcPost(baseUrl, procedure, input, { cookie })
  const body = (await response.json()) as { result?: { data?: unknown }; error?: unknown }
  if (response.status !== 200) throw new Error(`${procedure} answered ${response.status}: ${JSON.stringify(body)}`)
  return body.result?.data
}

const name = `sf_bench_sale_${randomBytes(4).toString('hex')}`
await adminQuery(adminUrl, `create database ${name}`)
const database = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, name), poolSize: 10 })
const db = database.db
// Every statement sent to PostgreSQL (the bench's own and the server's: one pool), counted, and recorded while asked.
const statements = { count: 0, recorded: null as string[] | null }
poolOf(db)!.on('connect', (client) => {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  client.query = ((...args: unknown[]) => {
    statements.count++
    const first = args[0] as string | { text?: string }
    statements.recorded?.push(typeof first === 'string' ? first : (first.text ?? '?'))
    return query(...args)
  }) as typeof client.query
})
const fake = await startFakeStripe()
let failures = 0
try {
  await migrateToLatest(db)
  await seedDatabase(db)
  const payments = {
    ...defaultPayments,
    stripe: createStripeApi({ secretKey: fake.secretKey, apiUrl: fake.url }),
    stripeWebhookSecret: fake.webhookSecret,
  }
  const serverLog = process.env.BENCH_LOG ? createWriteStream(process.env.BENCH_LOG) : undefined
  const server = await startTestServer(db, { payments, env: { NODE_ENV: 'production' }, logStream: serverLog })
  fake.webhookUrl = `${server.baseUrl}/api/stripe/webhook`

  // Six creators on Pro (coupons and bundles included), two courses each at uneven prices; every third course is
  // taught with two co-instructors at 50 / 33.33 / 16.67 %, so their parts need the largest remainder.
  const courses: SoldCourse[] = []
  const creators = await Promise.all(Array.from({ length: 6 }, () => createCreator(db, { plan: 'pro' })))
  for (const [index, creator] of creators.entries()) {
    for (const offset of [0, 1]) {
      const course = await ownedCourse(db, creator.id, 1999 + 1000 * index + 333 * offset)
      courses.push(course)
      if (courses.length % 3 !== 0) continue
      const [co1, co2] = await Promise.all([createUser(db), createUser(db)])
      await addCoInstructor(db, course.id, co1.id)
      await addCoInstructor(db, course.id, co2.id)
      await setCourseEarningShares(db, creator.id, {
        courseId: course.id,
        shares: [
          { userId: creator.id, percent: 50 },
          { userId: co1.id, percent: 33.33 },
          { userId: co2.id, percent: 16.67 },
        ],
      })
    }
  }
  const lastCreator = creators.at(-1)!
  const bundleCourses = [...(await Promise.all([0, 1, 2].map((n) => ownedCourse(db, lastCreator.id, 2500 + n))))]
  const bundle = await seedBundle(db, {
    courseIds: bundleCourses.map((course) => course.id),
    priceMinor: 4999,
    ownerId: lastCreator.id,
  })
  const couponCode = `BENCH${randomBytes(3).toString('hex').toUpperCase()}`
  const editor = await callerAs(db, await createUser(db, { role: 'editor' }))
  await editor.admin.coupons.create({
    code: couponCode,
    kind: 'percent',
    percentOff: 20,
    appliesTo: 'everything',
  } as never)

  /** New buyers with their carts filled over HTTP (untimed): a session cookie each. */
  async function cartsOf(count: number) {
    const cookies: string[] = []
    for (let i = 0; i < count; i++) {
      const buyer = await createUser(db)
      const { token } = await createSessionToken(db, buyer.id)
      const cookie = `session=${token}`
      for (let n = 0; n < 1 + (i % 3); n++) {
        const course = courses[(i * 5 + n * 7) % courses.length]!
        await mutate(server.baseUrl, cookie, 'cart.add', { kind: 'course', courseId: course.id })
      }
      if (i % 4 === 0) await mutate(server.baseUrl, cookie, 'cart.add', { kind: 'bundle', bundleId: bundle.id })
      if (i % 3 === 0) await mutate(server.baseUrl, cookie, 'cart.applyCoupon', { code: couponCode })
      cookies.push(cookie)
    }
    return cookies
  }

  /** Starts each cart's card checkout (timed); the Checkout Session ids go to `sessionIds`. */
  const startCheckouts = (cookies: string[], sessionIds: string[]) =>
    timedPool(cookies, async (cookie) => {
      const started = (await mutate(server.baseUrl, cookie, 'payments.start', { currency: 'USD', method: 'card' })) as {
        method: string
        url: string
      }
      if (started.method !== 'card') throw new Error(`expected a card checkout, got ${started.method}`)
      sessionIds.push(new URL(started.url).pathname.split('/').pop()!)
    })

  /** Stripe completes the sessions: their signed events, a fifth of them twice, shuffled. */
  function paidEvents(sessionIds: string[]) {
    const events = sessionIds.map((id) => fake.signedEvent('checkout.session.completed', fake.completeSession(id)))
    fake.queued.length = 0
    const redeliveries = events.filter((_, index) => index % 5 === 0)
    return { events, redeliveries, deliveries: [...events, ...redeliveries] }
  }

  const statuses = new Map<string, number>()
  const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1)
  async function deliver({ payload, header }: { payload: string; header: string }) {
    const response = await fetch(fake.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    })
    await response.arrayBuffer()
    count(`webhook ${response.status}`)
  }

  // 1. Sales alone.
  const sessionIds: string[] = []
  const starts = await startCheckouts(await cartsOf(buyers), sessionIds)
  const firstSales = paidEvents(sessionIds)
  const webhooks = await timedPool(shuffled(firstSales.deliveries), deliver)
  console.log(
    `Course sales on PostgreSQL: ${buyers} buyers, ${courses.length + bundleCourses.length} creator courses (a third with co-instructors, one bundle), a coupon on a third of the carts, ${concurrency} concurrent`,
  )
  report('checkout start (payments.start)', starts)
  report(`paid webhook (${firstSales.events.length} + ${firstSales.redeliveries.length} again)`, webhooks)

  // The statements one paid webhook sends, each delivered alone (then again): three more buyers, their carts holding
  // a course, the bundle and the coupon / two courses / three courses. Anything the server does after answering counts
  // too (it is waited for: no statement for 300 ms).
  const profileSessionIds: string[] = []
  for (const cookie of await cartsOf(3)) await startCheckouts([cookie], profileSessionIds) // in the carts' order
  const profiled = paidEvents(profileSessionIds)
  // The carts' add-to-cart counts are written by a 2 s timer: write them now, so that no webhook's count takes them in.
  await flushCourseEvents(db)
  const settled = async () => {
    for (let seen = -1; seen !== statements.count; ) {
      seen = statements.count
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
  }
  const statementsOf = async (delivery: { payload: string; header: string }, record: boolean) => {
    await settled()
    const before = statements.count
    if (record) statements.recorded = []
    await deliver(delivery)
    await settled()
    return statements.count - before
  }
  const perWebhook: number[] = []
  for (const [index, event] of profiled.events.entries()) perWebhook.push(await statementsOf(event, index === 2))
  const profile = statements.recorded ?? []
  statements.recorded = null
  const again = await statementsOf(profiled.events[0]!, false)
  console.log(
    `statements per paid webhook, alone: ${perWebhook.join(' / ')} (course + bundle + coupon / 2 courses / 3 courses), redelivered: ${again}`,
  )
  if (values.profile) {
    const counts = new Map<string, number>()
    for (const text of profile) counts.set(text, (counts.get(text) ?? 0) + 1)
    for (const [text, n] of [...counts].sort((a, b) => b[1] - a[1]))
      console.log(`${String(n).padStart(4)} × ${text.replace(/\s+/g, ' ').slice(0, 160)}`)
  }

  // 2. More sales of the same courses while staff refund one line of each earlier order (admin.orders.refund, through
  // Stripe): payments and refunds lock the same courses, shares and creators.
  const admin = await createUser(db, { role: 'admin' })
  const adminCookie = `session=${(await createSessionToken(db, admin.id)).token}`
  const refundable = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .distinctOn('o.id')
    .select(['o.id as orderId', 'i.id as lineId'])
    .where('o.stripe_session_id', 'in', sessionIds)
    .orderBy('o.id')
    .orderBy('i.id')
    .execute()
  const laterSessionIds: string[] = []
  await startCheckouts(await cartsOf(Math.ceil(buyers / 2)), laterSessionIds)
  const laterSales = paidEvents(laterSessionIds)
  type Task =
    | { kind: 'webhook'; delivery: { payload: string; header: string } }
    | { kind: 'refund'; orderId: string; lineId: string }
  const mixed: Task[] = shuffled([
    ...laterSales.deliveries.map((delivery) => ({ kind: 'webhook' as const, delivery })),
    ...refundable.map((line) => ({ kind: 'refund' as const, orderId: line.orderId, lineId: line.lineId })),
  ])
  const refundTimes: number[] = []
  const webhookTimes: number[] = []
  const mixedRun = await timedPool(mixed, async (task) => {
    const start = performance.now()
    if (task.kind === 'webhook') {
      await deliver(task.delivery)
      webhookTimes.push(performance.now() - start)
      return
    }
    const response = await trpcPost(
      server.baseUrl,
      'admin.orders.refund',
      { orderId: task.orderId, lineIds: [task.lineId] },
      { cookie: adminCookie },
    )
    const body = await response.text()
    count(`refund ${response.status}`)
    if (response.status !== 200) console.error(`refund answered ${response.status}: ${body.slice(0, 300)}`)
    refundTimes.push(performance.now() - start)
  })
  report(`  with refunds: paid webhook`, { times: webhookTimes, seconds: mixedRun.seconds })
  report(`  with sales: staff refund of a line`, { times: refundTimes, seconds: mixedRun.seconds })
  console.log(`statuses: ${[...statuses].map(([status, n]) => `${status} × ${n}`).join(', ')}`)
  await server.stop()
  sessionIds.push(...laterSessionIds, ...profileSessionIds)

  // What the money path stored.
  const check = (ok: boolean, what: string) => {
    if (ok) return
    failures++
    console.error(`WRONG: ${what}`)
  }
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'status', 'total_minor', 'captured_minor'])
    .where('stripe_session_id', 'in', sessionIds)
    .execute()
  check(orders.length === sessionIds.length, `${orders.length} orders for ${sessionIds.length} checkouts`)
  for (const order of orders) {
    const refunded = refundable.some((line) => line.orderId === order.id)
    check(
      order.status === (refunded ? 'partially_refunded' : 'paid') || (refunded && order.status === 'refunded'),
      `order ${order.id} is ${order.status}`,
    )
    check(
      order.captured_minor === order.total_minor,
      `order ${order.id} captured ${order.captured_minor} of ${order.total_minor}`,
    )
  }
  const lines = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .leftJoin('earning_shares as s', 's.order_item_id', 'i.id')
    .select([
      'i.id',
      'i.order_id',
      'o.total_minor',
      'o.tax_minor',
      'i.unit_price_minor',
      'i.discount_minor',
      's.net_minor',
      's.platform_fee_minor',
      's.processor_fee_minor',
      's.creator_minor',
      (eb) =>
        eb
          .selectFrom('earning_share_parts as p')
          .select(sql<string>`coalesce(sum(p.creator_minor), 0)`.as('parts'))
          .whereRef('p.order_item_id', '=', 'i.id')
          .as('parts'),
    ])
    .where('o.stripe_session_id', 'in', sessionIds)
    .execute()
  const paidOfOrder = new Map<string, number>()
  for (const line of lines) {
    const paid = line.unit_price_minor - line.discount_minor
    paidOfOrder.set(line.order_id, (paidOfOrder.get(line.order_id) ?? 0) + paid)
    if (line.net_minor === null) {
      check(false, `line ${line.id} has no creator share`)
      continue
    }
    check(line.net_minor === paid, `line ${line.id}: share of ${line.net_minor} for ${paid} paid`)
    const split = line.platform_fee_minor! + line.processor_fee_minor! + line.creator_minor!
    check(split === line.net_minor, `line ${line.id}: fees and creator ${split} ≠ net ${line.net_minor}`)
    check(Number(line.parts) === line.creator_minor, `line ${line.id}: parts ${line.parts} ≠ ${line.creator_minor}`)
  }
  for (const order of orders) {
    const sum = (paidOfOrder.get(order.id) ?? 0) + (lines.find((line) => line.order_id === order.id)?.tax_minor ?? 0)
    check(sum === order.total_minor, `order ${order.id}: lines ${sum} ≠ total ${order.total_minor}`)
  }
  const sales = await db
    .selectFrom('ledger_transactions as t')
    .innerJoin('ledger_entries as e', 'e.transaction_id', 't.id')
    .select(['t.id', (eb) => eb.fn.sum<string>('e.amount_minor').as('balance')])
    .where('t.kind', '=', 'sale')
    .where(
      't.source',
      'in',
      lines.map((line) => `order_item:${line.id}`),
    )
    .groupBy('t.id')
    .execute()
  check(sales.length === lines.length, `${sales.length} sale transactions for ${lines.length} lines`)
  const unbalanced = await db
    .selectFrom('ledger_entries')
    .select(['transaction_id', (eb) => eb.fn.sum<string>('amount_minor').as('balance')])
    .groupBy('transaction_id')
    .having((eb) => eb.fn.sum('amount_minor'), '<>', 0)
    .execute()
  for (const row of unbalanced) check(false, `ledger transaction ${row.transaction_id} sums to ${row.balance}`)
  // A refunded line: its reversal takes back from the creators what its sale gave them, less the processor's fee
  // taken from them meanwhile (Stripe keeps it, earnings/processor-fees.ts).
  const creatorNet = await db
    .selectFrom('ledger_transactions as t')
    .innerJoin('ledger_entries as e', 'e.transaction_id', 't.id')
    .select([
      sql<string>`substring(t.key from position(':' in t.key) + 1)`.as('lineId'),
      (eb) => eb.fn.sum<string>('e.amount_minor').as('net'),
    ])
    .where(
      't.key',
      'in',
      refundable.flatMap((line) => ['sale', 'processor_fee', 'reversal'].map((kind) => `${kind}:${line.lineId}`)),
    )
    .where('e.account', 'in', ['creator_pending', 'creator_available'])
    .groupBy(sql`substring(t.key from position(':' in t.key) + 1)`)
    .execute()
  check(
    creatorNet.length === refundable.length,
    `${creatorNet.length} refunded lines in the ledger of ${refundable.length}`,
  )
  for (const row of creatorNet)
    check(Number(row.net) === 0, `refunded line ${row.lineId} leaves ${row.net} with creators`)
  const refundedLines = await db
    .selectFrom('order_items')
    .select('id')
    .where(
      'id',
      'in',
      refundable.map((line) => line.lineId),
    )
    .where('refunded_at', 'is not', null)
    .execute()
  check(refundedLines.length === refundable.length, `${refundedLines.length} of ${refundable.length} lines refunded`)
  console.log(
    `checked: ${orders.length} orders paid once, ${lines.length} lines split (fees + creators = net, parts = creator share), ${sales.length} sale transactions, every ledger transaction balanced, ${refundable.length} refunded lines taken back from their creators: ${failures === 0 ? 'all right' : `${failures} WRONG`}`,
  )
} finally {
  await fake.close()
  await database.close()
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`)
}
if (failures > 0) process.exit(1)
