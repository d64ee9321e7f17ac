// `npm run bench:analytics -- [--courses N] [--days D] [--orders-per-day K] [--db postgres://…]`: loads a generated
// sales history (one-line course orders spread over D days and N courses, 3 % of lines refunded on a later day,
// views rows), rolls it up, and prints the one-day rollup time and the median answer of the analytics pages
// (shop-wide and one creator's, 30 days by day and 90 days by week). Embedded PGlite unless --db is given. With --db
// and no --courses, a database that `npm run db:generate -- --courses N --days D` filled is measured as it is (its
// generated creator and history; nothing loaded), and also each Pro section of the creator's page on its own (sales,
// funnel, learners, ratings and refund reasons, one course's lessons) and the progress part of a day's rollup (the
// learners who moved that day folded in, and their courses' snapshots).
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { insertUser } from '../db/seed/factories.ts'
import { GENERATED_CREATOR_EMAIL } from '../db/seed/generate-history.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { feedbackReport } from '../src-server/analytics/feedback-reads.ts'
import { funnelReport, learnersReport, lessonsReport, salesReport } from '../src-server/analytics/reads.ts'
import {
  PROGRESS_WATERMARK,
  refreshChangedCourses,
  rollupSalesDay,
  runAnalyticsRollup,
} from '../src-server/analytics/rollup.ts'
import { makeCreator } from '../src-server/creators/profiles.ts'
import { openDatabase } from '../src-server/kernel/db.ts'
import { createCaller } from '../src-server/routers/_app.ts'
import { createContextInner } from '../src-server/trpc/context.ts'

const arg = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`)
  return index > 0 ? (process.argv[index + 1] ?? fallback) : fallback
}
const COURSES = Number(arg('courses', '5000'))
const DAYS = Number(arg('days', '60'))
const PER_DAY = Number(arg('orders-per-day', '2000'))
const databaseUrl = process.argv.includes('--db') ? arg('db', '') : undefined

const handle = await openDatabase({ databaseUrl })
const { db } = handle
await migrateToLatest(db)
const today = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()))
const staff = await insertUser(db, { email: `bench-analytics-staff-${Date.now()}@example.test`, role: 'viewer' })
const generated =
  databaseUrl && !process.argv.includes('--courses')
    ? await db
        .selectFrom('users')
        .select(['id', 'email'])
        .where('email', '=', GENERATED_CREATOR_EMAIL)
        .executeTakeFirst()
    : undefined
const creator = generated ?? (await loadHistory())
const creatorCourses = Number(
  (
    await db
      .selectFrom('course_instructors')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', creator.id)
      .executeTakeFirstOrThrow()
  ).n,
)
if (generated) {
  const sizes = await sql<Record<string, string>>`select
    (select count(*) from courses) as courses, (select count(*) from order_items) as lines,
    (select count(*) from course_event_counts) as views, (select count(*) from lesson_progress) as progress,
    (select count(*) from quiz_attempts) as attempts, (select count(*) from course_completions) as completions,
    (select count(*) from course_reviews) as reviews`.execute(db)
  const size = sizes.rows[0] ?? {}
  const n = (key: string) => Number(size[key]).toLocaleString('en-US')
  console.log(
    `${handle.kind}: the generated database as it is: ${n('courses')} courses, ${n('lines')} order lines, ${n('views')} course-day view rows, ${n('progress')} lesson progress rows, ${n('attempts')} quiz attempts, ${n('completions')} completions, ${n('reviews')} reviews`,
  )
}

/** The benchmark's own history (PGlite, or --db with --courses): returns its creator. */
async function loadHistory() {
  await seedDatabase(db)
  const first = new Date(today.getTime() - DAYS * 86_400_000)
  const creator = await insertUser(db, { email: `bench-analytics-${Date.now()}@example.test` })
  const prefix = `ba${Date.now().toString(36)}`
  const loadAt = performance.now()
  const category = await db.selectFrom('categories').select('id').executeTakeFirstOrThrow()
  await sql`insert into courses (id, title, category_id, instructor_name, price_minor, what_you_will_learn, requirements, status)
  select ${prefix} || '-' || g, 'Bench course ' || g, ${category.id}, 'Bench', 1000 + (g % 50) * 100, '[]', '[]', 'published'
  from generate_series(1, ${COURSES}::int) g`.execute(db)
  // The creator teaches every 25th course (200 of 5,000).
  await sql`insert into course_instructors (course_id, user_id, role, share_basis_points)
  select ${prefix} || '-' || g, ${creator.id}, 'owner', 10000 from generate_series(25, ${COURSES}::int, 25) g`.execute(
    db,
  )
  const buyers = await sql<{ id: string }>`insert into users (email)
  select ${prefix} || '-buyer-' || g || '@example.test' from generate_series(1, 1000) g returning id`.execute(db)
  const buyerIds = buyers.rows.map((row) => row.id)
  const total = DAYS * PER_DAY
  for (let start = 0; start < total; start += 50_000) {
    const end = Math.min(total, start + 50_000)
    await sql`with o as (
      insert into orders (user_id, reference, currency, method, status, subtotal_minor, total_minor, paid_at, created_at)
      select (${buyerIds}::uuid[])[1 + g % 1000], ${prefix} || '-' || g, case when g % 5 = 0 then 'GBP' else 'USD' end,
        'bank_transfer', 'paid', 2900, 2900,
        ${first}::timestamptz + ((g::float8 / ${PER_DAY}::int) * interval '1 day'),
        ${first}::timestamptz + ((g::float8 / ${PER_DAY}::int) * interval '1 day')
      from generate_series(${start}::int, ${end - 1}::int) g
      returning id, reference, paid_at
    )
    insert into order_items (order_id, kind, course_id, item_key, title, unit_price_minor, discount_minor, refunded_at)
    select o.id, 'course', ${prefix} || '-' || (1 + (split_part(o.reference, '-', 2)::int * 7919) % ${COURSES}::int),
      'course:' || o.reference, 'Bench course', 2900,
      case when split_part(o.reference, '-', 2)::int % 4 = 0 then 290 else 0 end,
      case when split_part(o.reference, '-', 2)::int % 33 = 0 then o.paid_at + interval '9 days' end
    from o`.execute(db)
  }
  await sql`insert into course_event_counts (course_id, day, views, cart_adds)
  select ${prefix} || '-' || c, (${first}::date + d), 20 + (c % 30), 2 + (c % 5)
  from generate_series(1, ${COURSES}::int, 5) c, generate_series(0, ${DAYS}::int) d`.execute(db)
  await sql`analyze`.execute(db)
  console.log(
    `${handle.kind}: ${COURSES} courses, ${total} paid lines over ${DAYS} days (${PER_DAY}/day, 3 % refunded 9 days later), loaded in ${((performance.now() - loadAt) / 1000).toFixed(1)} s`,
  )
  return creator
}

const rollAt = performance.now()
const run = await runAnalyticsRollup(db)
console.log(
  `full rollup of ${run.days.length} days and ${run.courses.toLocaleString('en-US')} courses' progress snapshots: ${((performance.now() - rollAt) / 1000).toFixed(1)} s`,
)
// What autovacuum's analyze does on its own after such a load: the pages' plans need the rolled tables' statistics.
await sql`analyze analytics_sales_daily, analytics_shop_sales_daily, analytics_shop_views_daily`.execute(db)
const day = new Date(today.getTime() - 10 * 86_400_000).toISOString().slice(0, 10)
const samples: number[] = []
for (let i = 0; i < 5; i++) {
  const at = performance.now()
  await rollupSalesDay(db, day)
  samples.push(performance.now() - at)
}
samples.sort((a, b) => a - b)
console.log(`${'rollup of one day (median of 5)'.padEnd(48)} ${samples[2]?.toFixed(0)} ms`)

const session = { id: 'bench', expiresAt: new Date(Date.now() + 3_600_000) }
const callerFor = (user: { id: string; email: string; role: 'customer' | 'viewer' }) =>
  createCaller(
    createContextInner({
      db,
      user: { id: user.id, email: user.email, role: user.role, firstName: '', lastName: '', avatarUrl: null },
      session,
    }),
  )
const shop = callerFor({ id: staff.id, email: staff.email, role: 'viewer' })
const mine = callerFor({ id: creator.id, email: creator.email, role: 'customer' })
await makeCreator(db, creator.id, staff.id)

async function time(label: string, run: () => Promise<unknown>, rounds = 20) {
  await run()
  const times: number[] = []
  for (let i = 0; i < rounds; i++) {
    const at = performance.now()
    await run()
    times.push(performance.now() - at)
  }
  times.sort((a, b) => a - b)
  console.log(
    `${label.padEnd(48)} p50 ${times[Math.floor(rounds / 2)]?.toFixed(1)} ms  p95 ${times[Math.floor(rounds * 0.95)]?.toFixed(1)} ms`,
  )
}
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const last30 = { from: iso(today.getTime() - 29 * 86_400_000), to: iso(today.getTime()), granularity: 'day' as const }
const last90 = { from: iso(today.getTime() - 89 * 86_400_000), to: iso(today.getTime()), granularity: 'week' as const }
await time('analytics.shop (30 days by day)', () => shop.analytics.shop(last30))
await time('analytics.shop (90 days by week)', () => shop.analytics.shop(last90))
await time(`analytics.creator (${creatorCourses} courses, 30 days)`, () => mine.analytics.creator(last30))
await time(`analytics.creator (${creatorCourses} courses, 90 days)`, () => mine.analytics.creator(last90))

if (generated) {
  // The Pro sections one by one (what analytics.creator runs for a Pro plan, and the lessons page of a course).
  const scope = { kind: 'instructor' as const, userId: creator.id }
  const sales = await salesReport(db, scope, last30)
  await time('  sales: revenue, channels, top courses (30 d)', () => salesReport(db, scope, last30))
  await time('  funnel: views, cart, purchases (30 d)', () => funnelReport(db, scope, last30, sales.unitsByPeriod))
  await time('  learners: started/25/50/75/completed', () => learnersReport(db, scope))
  await time('  ratings over time, refund reasons (30 d)', () => feedbackReport(db, scope, last30))
  await time('  ratings over time, refund reasons (90 d)', () => feedbackReport(db, scope, last90))
  const busiest = await db
    .selectFrom('analytics_course_progress as p')
    .innerJoin('course_instructors as ci', 'ci.course_id', 'p.course_id')
    .select(['p.course_id', 'p.started'])
    .where('ci.user_id', '=', creator.id)
    .orderBy('p.started', 'desc')
    .executeTakeFirst()
  if (busiest) {
    await time(`analytics.creatorLessons (${busiest.started} learners)`, () =>
      mine.analytics.creatorLessons({ courseId: busiest.course_id }),
    )
    await time('  lessons: reach, video stops, quiz pass rate', () => lessonsReport(db, busiest.course_id))
  }
  // A day's progress rollup as the job runs it: the learners who moved that day folded in by difference, then
  // their courses' snapshots (the watermark set to the day's start; the job's ten minutes of overlap included).
  const dayStart = new Date(`${day}T00:00:00.000Z`)
  const dayEnd = new Date(dayStart.getTime() + 86_400_000)
  const since = new Date(dayStart.getTime() - 10 * 60_000)
  const moved = await sql<{ learners: string; courses: string }>`
    select count(*) as learners, count(distinct course_id) as courses from (
      select user_id, course_id from lesson_progress
      where coalesce(changed_at, updated_at) > ${since} and coalesce(changed_at, updated_at) <= ${dayEnd}
      union
      select user_id, course_id from quiz_attempts where submitted_at > ${since} and submitted_at <= ${dayEnd}) moved`.execute(
    db,
  )
  const foldTimes: number[] = []
  for (let i = 0; i < 3; i++) {
    await sql`update analytics_rollup_state set value = ${new Date(dayStart.getTime() + 10 * 60_000).toISOString()}
      where name = ${PROGRESS_WATERMARK}`.execute(db)
    const refreshAt = performance.now()
    await refreshChangedCourses(db, dayEnd)
    foldTimes.push(performance.now() - refreshAt)
  }
  foldTimes.sort((a, b) => a - b)
  const learners = Number(moved.rows[0]?.learners ?? 0).toLocaleString('en-US')
  const courses = Number(moved.rows[0]?.courses ?? 0).toLocaleString('en-US')
  console.log(
    `${`progress rollup of one day (${learners} learners in ${courses} courses, median of 3)`.padEnd(48)} ${foldTimes[1]?.toFixed(0)} ms`,
  )
}
await handle.close()
