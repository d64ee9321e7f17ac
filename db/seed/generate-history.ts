// A generated analytics history over the generated catalogue (`npm run db:generate -- --days D`): one-line course
// orders paid over the last D days (a sale's course drawn with a long tail: a few courses sell most), 20 % in GBP, a
// quarter with a coupon, marked as found by search or by browsing the catalogue like the shop's cart lines, 3 % given
// back nine days later (when that day has passed); course-page views and add-to-cart counters for a share of the
// courses each day, with their channels; and a creator (generated-creator@example.test) who teaches 200 of the
// courses, for the creator's page. Set-based SQL in batches, deterministic for the same options; a second run
// replaces it. The pages read rolled days: run the analytics rollup after (npm run bench:analytics does).
import { type Kysely, sql } from 'kysely'
import type { Database } from '../types.ts'
import { GENERATED_ID_PREFIX } from './generate.ts'

export const GENERATED_CREATOR_EMAIL = 'generated-creator@example.test'
const BUYER_EMAIL = (n: string) => `generated-buyer-${n}@example.test`
const BUYERS = 2000
export const GENERATED_CREATOR_COURSES = 200

export interface HistoryOptions {
  /** Days of orders, refunds and views, ending yesterday (and today's first hours). */
  days: number
  ordersPerDay: number
  /** Courses with a views and add-to-cart row each day. */
  viewedCoursesPerDay: number
  /** Orders per INSERT statement. */
  batch?: number
  onProgress?: (message: string) => void
}

const h = (expr: ReturnType<typeof sql>, salt: number) =>
  sql`(hashint8((${expr})::bigint * 1000003 + ${sql.lit(salt)}) & 2147483647)`
const u = (expr: ReturnType<typeof sql>, salt: number) => sql`(${h(expr, salt)}::float8 / 2147483648.0)`
const courseId = (index: ReturnType<typeof sql>) => sql`${GENERATED_ID_PREFIX} || lpad((${index})::text, 7, '0')`

/** Replaces the generated history; the generated catalogue must be there (generateCatalogue). */
export async function generateHistory(db: Kysely<Database>, options: HistoryOptions): Promise<void> {
  const batch = options.batch ?? 50_000
  const courses = Number(
    (
      await db
        .selectFrom('courses')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('id', 'like', `${GENERATED_ID_PREFIX}%`)
        .executeTakeFirstOrThrow()
    ).n,
  )
  if (courses === 0) throw new Error('generate: no generated courses (run db:generate with --courses first)')
  const today = new Date(new Date().toISOString().slice(0, 10))
  const first = new Date(today.getTime() - options.days * 86_400_000)

  // The earlier history goes with its buyers (their orders and lines cascade) and the generated counters.
  await sql`delete from users where email like ${BUYER_EMAIL('%')}`.execute(db)
  await sql`delete from course_event_counts where course_id like ${`${GENERATED_ID_PREFIX}%`}`.execute(db)
  await sql`delete from users where email = ${GENERATED_CREATOR_EMAIL}`.execute(db)
  await sql`delete from analytics_rollup_state`.execute(db)

  const buyers = await sql<{ id: string }>`insert into users (email, first_name, last_name)
    select 'generated-buyer-' || g || '@example.test', 'Buyer', g::text from generate_series(1, ${sql.lit(BUYERS)}) g
    returning id`.execute(db)
  const buyerIds = buyers.rows.map((row) => row.id)
  const creator = await sql<{ id: string }>`insert into users (email, first_name, last_name)
    values (${GENERATED_CREATOR_EMAIL}, 'Generated', 'Creator') returning id`.execute(db)
  const step = Math.max(1, Math.floor(courses / GENERATED_CREATOR_COURSES))
  await sql`insert into course_instructors (course_id, user_id, role, share_basis_points)
    select ${courseId(sql`g`)}, ${creator.rows[0]?.id}, 'owner', 10000
    from generate_series(${sql.lit(step)}::int, ${sql.lit(courses)}::int, ${sql.lit(step)}::int) g
    limit ${sql.lit(GENERATED_CREATOR_COURSES)}`.execute(db)

  const total = options.days * options.ordersPerDay
  const g = sql`g`
  for (let start = 0; start < total; start += batch) {
    const end = Math.min(total, start + batch)
    await sql`with line as (
        select g, (${buyerIds}::uuid[])[1 + ${h(g, 1)} % ${sql.lit(BUYERS)}] as user_id,
          ${first}::timestamptz + ((g::float8 / ${sql.lit(options.ordersPerDay)}) * interval '1 day') as paid_at,
          -- A long tail: the lower-numbered courses sell most.
          ${courseId(sql`1 + floor(${sql.lit(courses)} * power(${u(g, 2)}, 3))::int`)} as course_id,
          case when ${h(g, 3)} % 5 = 0 then 'GBP' else 'USD' end as currency,
          ${h(g, 4)} % 4 = 0 as coupon,
          case when ${h(g, 5)} % 10 < 3 then 'search' when ${h(g, 5)} % 10 < 5 then 'catalogue' end as channel,
          ${h(g, 6)} % 33 = 0 as refunded
        from generate_series(${sql.lit(start)}::int, ${sql.lit(end - 1)}::int) g
      ), priced as (
        select line.*, greatest(c.price_minor, 1299) as price, c.title from line join courses c on c.id = line.course_id
      ), o as (
        insert into orders (user_id, reference, currency, method, status, subtotal_minor, discount_minor, total_minor,
          paid_at, created_at)
        select user_id, 'GEN-' || g, currency, 'bank_transfer', 'paid', price,
          case when coupon then price / 10 else 0 end, price - case when coupon then price / 10 else 0 end,
          paid_at, paid_at
        from priced
        returning id, reference
      )
      insert into order_items (order_id, kind, course_id, item_key, title, unit_price_minor, discount_minor, channel,
        refunded_at)
      select o.id, 'course', p.course_id, 'course:' || p.course_id, p.title, p.price,
        case when p.coupon then p.price / 10 else 0 end, p.channel,
        case when p.refunded and p.paid_at + interval '9 days' < now() then p.paid_at + interval '9 days' end
      from o join priced p on o.reference = 'GEN-' || p.g`.execute(db)
    options.onProgress?.(`${end.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} orders`)
  }

  const viewed = Math.min(courses, options.viewedCoursesPerDay)
  const stride = Math.max(1, Math.floor(courses / viewed))
  for (let day = 0; day <= options.days; day++) {
    // Distinct courses each day (a stride through the catalogue, shifted by the day).
    await sql`insert into course_event_counts (course_id, day, views, views_search, views_catalogue, cart_adds)
      select ${courseId(sql`1 + ((k - 1) * ${sql.lit(stride)} + ${sql.lit(day)}) % ${sql.lit(courses)}`)},
        ${first}::date + ${sql.lit(day)}, v, v * 3 / 10, v / 5, v / 15
      from (select k, 5 + ${h(sql`k * 1000 + ${sql.lit(day)}`, 7)} % 200 as v
        from generate_series(1, ${sql.lit(viewed)}::int) k) s`.execute(db)
    if (day % 30 === 0) options.onProgress?.(`views: day ${day} of ${options.days}`)
  }
}
