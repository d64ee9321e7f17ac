// A generated analytics history over the generated catalogue (`npm run db:generate -- --days D`): one-line course
// orders paid over the last D days (a sale's course drawn with a long tail: a few courses sell most), 20 % in GBP, a
// quarter with a coupon, marked as found by search or by browsing the catalogue like the shop's cart lines, 3 % given
// back nine days later (when that day has passed); course-page views and add-to-cart counters for a share of the
// courses each day, with their channels; and a creator (generated-creator@example.test) who teaches 200 of the
// courses, for the creator's page (an approved creator on the Pro plan, so the page shows every section). The buyers
// hold what they bought (a course grant per line, revoked with a refund) and most refunds were asked for with a
// reason; then the learning history of the creator's courses and other best sellers (generate-learning.ts: lessons,
// progress, completions, quiz attempts, reviews). Set-based SQL in batches, deterministic for the same options; a
// second run replaces it. The pages read rolled days: run the analytics rollup after (npm run bench:analytics does).
import { type Kysely, sql } from 'kysely'
import type { Database } from '../types.ts'
import { GENERATED_ID_PREFIX } from './generate.ts'
import { clearLearning, generateLearning, type LearningTotals } from './generate-learning.ts'

export const GENERATED_CREATOR_EMAIL = 'generated-creator@example.test'
const BUYER_EMAIL = (n: string) => `generated-buyer-${n}@example.test`
const BUYERS = 2000
export const GENERATED_CREATOR_COURSES = 200
export const DEFAULT_LEARNING_COURSES = 20_000
export const DEFAULT_PROGRESS_PER_DAY = 15_000
export const REFUND_REASONS = [
  'Not what I expected',
  'Too basic for me',
  'Audio or video quality',
  'Bought it by mistake',
  'Found a better course',
]

export interface HistoryOptions {
  /** Days of orders, refunds and views, ending yesterday (and today's first hours). */
  days: number
  ordersPerDay: number
  /** Courses with a views and add-to-cart row each day. */
  viewedCoursesPerDay: number
  /** Courses with lessons and learners: the creator's 200 and the best sellers after them. */
  learningCourses?: number
  /** Lesson progress rows a day (about), 0 for none. */
  progressPerDay?: number
  /** Orders per INSERT statement. */
  batch?: number
  /** The generator's clock (tests pin it). */
  now?: Date
  onProgress?: (message: string) => void
  /**
   * Makes a user an approved creator (the server's own `makeCreator`, src-server/creators/profiles.ts), passed in by
   * the caller: db/ stays below the server (tests/unit/architecture.test.ts).
   */
  makeCreator: (db: Kysely<Database>, userId: string, approvedBy: null) => Promise<unknown>
}

const h = (expr: ReturnType<typeof sql>, salt: number) =>
  sql`(hashint8((${expr})::bigint * 1000003 + ${sql.lit(salt)}) & 2147483647)`
const u = (expr: ReturnType<typeof sql>, salt: number) => sql`(${h(expr, salt)}::float8 / 2147483648.0)`
const courseId = (index: ReturnType<typeof sql>) => sql`${GENERATED_ID_PREFIX} || lpad((${index})::text, 7, '0')`

async function generatedCourses(db: Kysely<Database>): Promise<number> {
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
  return courses
}

const firstDay = (now: Date, days: number) =>
  new Date(new Date(now.toISOString().slice(0, 10)).getTime() - days * 86_400_000)

/** Replaces the generated history; the generated catalogue must be there (generateCatalogue). */
export async function generateHistory(db: Kysely<Database>, options: HistoryOptions): Promise<LearningTotals> {
  const batch = options.batch ?? 50_000
  const courses = await generatedCourses(db)
  const now = options.now ?? new Date()
  const first = firstDay(now, options.days)

  // The earlier history goes with its buyers (their orders and lines cascade) and the generated counters; the
  // learning rows first, set-wise (a buyer's would be looked for table by table).
  await clearLearning(db)
  await sql`delete from users where email like ${BUYER_EMAIL('%')}`.execute(db)
  await sql`delete from course_event_counts where course_id like ${`${GENERATED_ID_PREFIX}%`}`.execute(db)
  // Its creator profile first (the creator row holds the instructor row).
  const previous = sql`(select id from users where email = ${GENERATED_CREATOR_EMAIL})`
  await sql`delete from creators where user_id in ${previous}`.execute(db)
  await sql`delete from instructors where user_id in ${previous}`.execute(db)
  await sql`delete from users where email = ${GENERATED_CREATOR_EMAIL}`.execute(db)
  await sql`delete from analytics_rollup_state`.execute(db)

  const buyers = await sql<{ id: string }>`insert into users (email, first_name, last_name)
    select 'generated-buyer-' || g || '@example.test', 'Buyer', g::text from generate_series(1, ${sql.lit(BUYERS)}) g
    returning id`.execute(db)
  const buyerIds = buyers.rows.map((row) => row.id)
  const creator = await sql<{ id: string }>`insert into users (email, first_name, last_name)
    values (${GENERATED_CREATOR_EMAIL}, 'Generated', 'Creator') returning id`.execute(db)
  const creatorId = creator.rows[0]!.id
  // An approved creator on the Pro plan (a live monthly subscription and its grant) since the history began.
  await options.makeCreator(db, creatorId, null)
  const subscription = await sql<{ id: string }>`insert into subscriptions (user_id, plan_id, billing_cycle, status,
      renews_at, paid_through, amount_minor, currency, created_at, updated_at)
    select ${creatorId}, id, 'monthly', 'active', ${now}::timestamptz + interval '30 days',
      ${now}::timestamptz + interval '30 days', monthly_price_minor, currency, ${first}, ${first}
    from plans where id = 'pro' returning id`.execute(db)
  if (subscription.rows[0]) {
    await sql`insert into access_grants (user_id, kind, source, subscription_id, starts_at)
      values (${creatorId}, 'premium', 'subscription', ${subscription.rows[0].id}, ${first})`.execute(db)
  }
  const step = Math.max(1, Math.floor(courses / GENERATED_CREATOR_COURSES))
  await sql`insert into course_instructors (course_id, user_id, role, share_basis_points)
    select ${courseId(sql`g`)}, ${creatorId}, 'owner', 10000
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
        case when p.refunded and p.paid_at + interval '9 days' < ${now}::timestamptz then p.paid_at + interval '9 days' end
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

  // What the buyers hold: a course grant per line (revoked when given back).
  await sql`insert into access_grants (user_id, kind, course_id, source, order_id, order_item_id, starts_at, revoked_at,
      revoked_reason)
    select o.user_id, 'course', oi.course_id, 'order_item', o.id, oi.id, o.paid_at, oi.refunded_at,
      case when oi.refunded_at is not null then 'refund' end
    from order_items oi join orders o on o.id = oi.order_id
    where o.reference like 'GEN-%'`.execute(db)
  // Four refunds in five asked for with a reason (approved on the day it was given back).
  await sql`insert into refund_requests (order_item_id, order_id, user_id, reason, status, decided_at, created_at)
    select oi.id, o.id, o.user_id, (${sql.val(REFUND_REASONS)}::text[])[1 + ${h(sql`substr(o.reference, 5)::bigint`, 8)} % ${sql.lit(REFUND_REASONS.length)}],
      'approved', oi.refunded_at, oi.refunded_at - interval '2 days'
    from order_items oi join orders o on o.id = oi.order_id
    where o.reference like 'GEN-%' and oi.refunded_at is not null and ${h(sql`substr(o.reference, 5)::bigint`, 9)} % 5 <> 0`.execute(
    db,
  )
  options.onProgress?.('grants and refund requests')

  return generateLearningHistory(db, options, { courses, step, first, now })
}

/**
 * Replaces only the learning history (`db:generate -- --learning-only`): the orders, views and creator of an earlier
 * run stay (the buyers' enrolments come from them).
 */
export async function generateLearningHistory(
  db: Kysely<Database>,
  options: Pick<HistoryOptions, 'days' | 'learningCourses' | 'progressPerDay' | 'now' | 'onProgress'>,
  known?: { courses: number; step: number; first: Date; now: Date },
): Promise<LearningTotals> {
  const courses = known?.courses ?? (await generatedCourses(db))
  const step = known?.step ?? Math.max(1, Math.floor(courses / GENERATED_CREATOR_COURSES))
  const now = known?.now ?? options.now ?? new Date()
  const learningCourses = Math.min(courses, options.learningCourses ?? DEFAULT_LEARNING_COURSES)
  return generateLearning(db, {
    // Slot s: the creator's courses first (every step-th), then the others in id order (the best sellers).
    creatorCourseIndexes: (slot) =>
      step === 1
        ? sql`((${slot}) + 1)`
        : sql`(case when (${slot}) < ${sql.lit(GENERATED_CREATOR_COURSES)} then ${sql.lit(step)} * ((${slot}) + 1)
            else (${slot}) - ${sql.lit(GENERATED_CREATOR_COURSES - 1)}
              + ((${slot}) - ${sql.lit(GENERATED_CREATOR_COURSES)}) / ${sql.lit(step - 1)} end)`,
    learningCourses,
    progressPerDay: options.progressPerDay ?? DEFAULT_PROGRESS_PER_DAY,
    days: options.days,
    first: known?.first ?? firstDay(now, options.days),
    now,
    onProgress: options.onProgress,
  })
}
