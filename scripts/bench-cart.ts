// Benchmark of the cart and payment hot paths on embedded PGlite: `node --import tsx scripts/bench-cart.ts`.
// Prints median and p95 per operation; not a test (numbers depend on the machine).
import { migrateToLatest } from '../db/migrate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { processStripeEvent } from '../src-server/flows/apply-stripe-event.ts'
import { createFromCart } from '../src-server/flows/cart-order.ts'
import { openPglite } from '../src-server/kernel/db.ts'
import { attachStripeSession } from '../src-server/orders/create.ts'
import { parseStripeEvent } from '../src-server/payments/stripe-event.ts'
import { createUser } from '../tests/support/factories.ts'
import { shopCaller } from '../tests/support/shop.ts'

const handle = await openPglite({})
await migrateToLatest(handle.db)
await seedDatabase(handle.db)
const db = handle.db

async function time(label: string, runs: number, fn: (i: number) => Promise<unknown>) {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await fn(i)
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(2)
  console.log(`${label.padEnd(44)} median ${at(0.5)} ms   p95 ${at(0.95)} ms   (${runs} runs)`)
}

const user = await createUser(db)
const caller = await shopCaller(db, user)
const courses = await db.selectFrom('courses').select('id').where('status', '=', 'published').execute()
const packages = await db.selectFrom('service_packages').select('id').execute()
for (const course of courses) await caller.cart.add({ kind: 'course', courseId: course.id })
for (const pkg of packages) await caller.cart.add({ kind: 'service_package', packageId: pkg.id })
await caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' })
const count = await caller.cart.count()

await time(`cart.list (${count} items, one joined query)`, 200, () => caller.cart.list())
await time('cart.count', 200, () => caller.cart.count())
await time('cart.add duplicate (refused by unique index)', 200, () =>
  caller.cart.add({ kind: 'plan', planId: 'pro', billingCycle: 'annual' }).catch(() => null),
)
const orderIds: string[] = []
await time('create order from cart (USD group)', 50, async () => {
  const order = await createFromCart(db, { userId: user.id, currency: 'USD', method: 'card', referencePrefix: 'SF' })
  await attachStripeSession(db, order.id, `cs_bench_${order.id}`)
  orderIds.push(order.id)
})
const event = (orderId: string, id: string) => ({
  id,
  type: 'checkout.session.completed',
  data: {
    object: {
      id: `cs_bench_${orderId}`,
      status: 'complete',
      payment_status: 'paid',
      metadata: { orderId },
      subscription: null,
    },
  },
})
await time('webhook event: fulfil a paid order', 50, (i) =>
  processStripeEvent(db, parseStripeEvent(event(orderIds[i]!, `evt_${i}`))),
)
await time('webhook event: duplicate delivery', 200, (i) =>
  processStripeEvent(db, parseStripeEvent(event(orderIds[0]!, `evt_${i % 50}`))),
)
await handle.close()
