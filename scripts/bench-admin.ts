// `npx tsx scripts/bench-admin.ts [courses]`: times the admin's hot reads on an embedded database holding
// many courses (default 5000) and 15,000 orders: the course list (filter counts + search + page), the dashboard
// (counts and 30-day sales), the orders page and the team.
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { courseRow, insertUser } from '../db/seed/factories.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { defaultAppConfig } from '../src-server/kernel/config.ts'
import { openPglite } from '../src-server/kernel/db.ts'
import { createCaller } from '../src-server/routers/_app.ts'
import { createContextInner } from '../src-server/trpc/context.ts'

const total = Number(process.argv[2] ?? 5000)
const handle = await openPglite({})
const { db } = handle
await migrateToLatest(db)
await seedDatabase(db)
const category = await db.selectFrom('categories').select('id').executeTakeFirstOrThrow()
for (let start = 0; start < total; start += 500) {
  await db
    .insertInto('courses')
    .values(
      Array.from({ length: Math.min(500, total - start) }, (_, i) =>
        courseRow({
          id: `bench-${start + i}`,
          title: `Benchmark course ${start + i} ${i % 7 === 0 ? 'kubernetes' : 'design'}`,
          category_id: category.id,
          instructor_name: `Teacher ${i % 50}`,
          price_minor: 1000 + i,
          status: i % 3 === 0 ? 'draft' : 'published',
          featured: i % 25 === 0,
        }),
      ),
    )
    .execute()
}
// A year of orders from one customer: about 40 a day, most of them paid.
const buyer = await insertUser(db, { email: 'bench-buyer@example.test' })
const DAY_MS = 86_400_000
for (let start = 0; start < 15_000; start += 1000) {
  await db
    .insertInto('orders')
    .values(
      Array.from({ length: 1000 }, (_, i) => {
        const n = start + i
        const at = new Date(Date.now() - (n % 365) * DAY_MS - (n % 1440) * 60_000)
        return {
          user_id: buyer.id,
          reference: `BENCH-${n}`,
          currency: n % 4 === 0 ? ('GBP' as const) : ('USD' as const),
          method: 'card' as const,
          status: n % 5 === 0 ? ('cancelled' as const) : ('paid' as const),
          subtotal_minor: 1000 + (n % 9000),
          total_minor: 1000 + (n % 9000),
          paid_at: n % 5 === 0 ? null : at,
          created_at: at,
        }
      }),
    )
    .execute()
}
await sql`analyze`.execute(db)
const owner = await insertUser(db, { email: 'bench-owner@example.test', role: 'super_admin' })
const caller = createCaller(
  createContextInner({
    db,
    user: { id: owner.id, email: owner.email, role: owner.role, firstName: '', lastName: '', avatarUrl: null },
    session: { id: 'bench', expiresAt: new Date(Date.now() + 60_000) },
    // Measures the reads, not the second factor an owner needs under STAFF_2FA=required.
    config: { ...defaultAppConfig, staffTwoFactor: 'optional' },
  }),
)

async function time(label: string, run: () => Promise<unknown>, rounds = 30) {
  await run()
  const samples: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    await run()
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  const p50 = samples[Math.floor(rounds / 2)]!.toFixed(1)
  const p95 = samples[Math.floor(rounds * 0.95)]!.toFixed(1)
  console.log(`${label.padEnd(44)} p50 ${p50} ms  p95 ${p95} ms`)
}

console.log(`PGlite, ${total} extra courses, 15000 orders`)
await time('admin.courses.list (all, page 1)', () => caller.admin.courses.list({}))
await time('admin.courses.list (draft, page 20)', () => caller.admin.courses.list({ filter: 'draft', page: 20 }))
await time("admin.courses.list (search 'kubernetes')", () => caller.admin.courses.list({ search: 'kubernetes' }))
await time('admin.dashboard.summary', () => caller.admin.dashboard.summary())
await time('admin.categories.list', () => caller.admin.categories.list())
await time('admin.orders.list (page 1)', () => caller.admin.orders.list({}))
await time('admin.team.list', () => caller.admin.team.list())
await handle.close()
