// The analytics job (jobs 'analytics.rollup'): rolls up each finished UTC day's sales into analytics_sales_daily (and
// the shop's totals of the day, sales and course-page views, into analytics_shop_sales_daily and _views_daily) and
// refreshes the progress, lesson and quiz snapshots of the courses whose learners moved. Idempotent: a day is
// replaced whole in one transaction, so a rerun writes the same rows; the last two rolled days are rolled again
// each run so a line committed just after midnight still lands on its own day. Days after the watermark are read
// live by the pages (today always).
import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { rollupFeedbackDay } from './feedback.ts'
import { insertInChunks } from './insert-chunks.ts'
import { clearProgressCounts, foldLearners, refreshCourseProgress, refreshCourseStats } from './progress.ts'
import { type SalesRow, salesRows } from './sales.ts'
import { blocksHolding, fillTopBlocks, rollupTopBlock } from './top.ts'

const DAY_MS = 86_400_000
export const SALES_WATERMARK = 'sales_day'
export const PROGRESS_WATERMARK = 'progress_at'
const REROLL_DAYS = 2

export const dayOf = (date: Date) => date.toISOString().slice(0, 10)
export const addDays = (day: string, days: number) =>
  dayOf(new Date(new Date(`${day}T00:00:00.000Z`).getTime() + days * DAY_MS))

export async function readState(db: DB, name: string): Promise<string | null> {
  const row = await db.selectFrom('analytics_rollup_state').select('value').where('name', '=', name).executeTakeFirst()
  return row?.value ?? null
}

async function writeState(db: DB, name: string, value: string) {
  await db
    .insertInto('analytics_rollup_state')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute()
}

/** Replaces one day's sales rows (every course) with what the orders say now, and its ratings and refund reasons. */
export async function rollupSalesDay(db: DB, day: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // One roller per day at a time: two workers never interleave their delete and insert.
    await sql`select pg_advisory_xact_lock(hashtext(${`analytics:${day}`}))`.execute(trx)
    const rows = await salesRows(trx, day, day, { kind: 'shop' })
    await trx.deleteFrom('analytics_sales_daily').where('day', '=', day).execute()
    await insertInChunks(
      trx,
      'analytics_sales_daily',
      rows.map((row) => ({
        course_id: row.courseId,
        day: row.day,
        currency: row.currency,
        ...(Object.fromEntries(SUMMED.map(([column, field]) => [column, row[field]])) as Record<SummedColumn, number>),
      })),
    )
    await rollupShopDay(trx, day)
    // The best sellers of the finished blocks of days holding this one, in the same transaction (one writer at a time).
    const watermark = await readState(trx, SALES_WATERMARK)
    const finished = watermark && watermark > day ? watermark : day
    await sql`select pg_advisory_xact_lock(hashtext('analytics:top'))`.execute(trx)
    for (const block of blocksHolding(day)) if (block.lastDay <= finished) await rollupTopBlock(trx, block)
    // The day's ratings and refunds by reason, in the same transaction: a rerun replaces them whole too.
    await rollupFeedbackDay(trx, day)
    return rows.length
  })
}

/**
 * The shop's totals of the day, which the staff page reads instead of every course's rows: sales per currency (the
 * day's course rows just written, summed) and course-page views (the counters of the day, summed).
 */
async function rollupShopDay(trx: DB, day: string): Promise<void> {
  await trx.deleteFrom('analytics_shop_sales_daily').where('day', '=', day).execute()
  await trx.deleteFrom('analytics_shop_views_daily').where('day', '=', day).execute()
  await sql`insert into analytics_shop_sales_daily (day, currency, ${sql.raw(SUMMED_COLUMNS.join(', '))})
    select day, currency, ${sql.raw(SUMMED_COLUMNS.map((column) => `sum(${column})`).join(', '))}
    from analytics_sales_daily where day = ${day} group by day, currency`.execute(trx)
  await sql`insert into analytics_shop_views_daily (day, views, views_search, views_catalogue, cart_adds)
    select day, sum(views), sum(views_search), sum(views_catalogue), sum(cart_adds)
    from course_event_counts where day = ${day} group by day`.execute(trx)
}

/** The day's sums, in analytics_sales_daily and analytics_shop_sales_daily alike, and the sales row's field of each. */
const SUMMED = [
  ['gross_minor', 'grossMinor'],
  ['discount_minor', 'discountMinor'],
  ['refund_minor', 'refundMinor'],
  ['platform_fee_minor', 'platformFeeMinor'],
  ['net_minor', 'netMinor'],
  ['units', 'units'],
  ['units_direct', 'unitsDirect'],
  ['units_coupon', 'unitsCoupon'],
  ['units_bundle', 'unitsBundle'],
  ['units_gift', 'unitsGift'],
  ['units_search', 'unitsSearch'],
  ['units_catalogue', 'unitsCatalogue'],
  ['refunds', 'refunds'],
] as const satisfies readonly (readonly [string, keyof SalesRow])[]
type SummedColumn = (typeof SUMMED)[number][0]
const SUMMED_COLUMNS = SUMMED.map(([column]) => column)

/** The first day anything was sold or a course page viewed, or null. */
async function firstSalesDay(db: DB): Promise<string | null> {
  const [sold, viewed] = await Promise.all([
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.min('paid_at').as('first'))
      .where('paid_at', 'is not', null)
      .executeTakeFirst(),
    db.selectFrom('course_event_counts').select(sql<string | null>`min(day)::text`.as('first')).executeTakeFirst(),
  ])
  const days = [sold?.first ? dayOf(new Date(sold.first as unknown as string)) : null, viewed?.first ?? null].filter(
    (day): day is string => day !== null,
  )
  return days.length > 0 ? days.sort()[0]! : null
}

export interface RollupRun {
  days: string[]
  courses: number
}

/** Rolls up every finished day not rolled yet (and the last two again), then the changed courses' snapshots. */
export async function runAnalyticsRollup(db: DB, now = clock.now()): Promise<RollupRun> {
  const yesterday = addDays(dayOf(now), -1)
  const watermark = await readState(db, SALES_WATERMARK)
  const start = watermark ? addDays(watermark, 1 - REROLL_DAYS) : await firstSalesDay(db)
  const days: string[] = []
  if (start) {
    for (let day = start; day <= yesterday; day = addDays(day, 1)) {
      await rollupSalesDay(db, day)
      days.push(day)
    }
    if (days.length > 0) await writeState(db, SALES_WATERMARK, yesterday)
    // Blocks of days rolled before the best-seller lists existed.
    const first = await db
      .selectFrom('analytics_sales_daily')
      .select(sql<string | null>`min(day)::text`.as('day'))
      .executeTakeFirst()
    const last = await readState(db, SALES_WATERMARK)
    if (first?.day && last) await fillTopBlocks(db, first.day, last)
  }
  const courses = await refreshChangedCourses(db)
  return { days, courses }
}

const FOLD_LEARNERS = 10_000
const REBUILD_COURSES = 500
const SNAPSHOT_COURSES = 2_000

/**
 * Folds in the learners who saved progress or submitted a quiz since the watermark (the largest timestamp seen, from
 * the database's own clock, less ten minutes for transactions that committed late; up to `until`), then rewrites
 * the snapshots of their courses and of those with a new completion. Without a watermark (the first run, or after
 * a migration asks for it), every count is rebuilt from every learner, a batch of courses at a time.
 */
export async function refreshChangedCourses(db: DB, until?: Date): Promise<number> {
  const since = await readState(db, PROGRESS_WATERMARK)
  if (!since) return rebuildProgressCounts(db)
  const after = new Date(new Date(since).getTime() - 10 * 60_000)
  const upTo = until ?? new Date('9999-12-31T00:00:00.000Z')
  const [moved, completions] = await Promise.all([
    sql<{ user_id: string; course_id: string; at: Date | string }>`
      select user_id, course_id, max(at) as at from (
        select user_id, course_id, coalesce(changed_at, updated_at) as at from lesson_progress
        where coalesce(changed_at, updated_at) > ${after} and coalesce(changed_at, updated_at) <= ${upTo}
        union all
        select user_id, course_id, submitted_at from quiz_attempts
        where submitted_at is not null and submitted_at > ${after} and submitted_at <= ${upTo}
      ) changed group by user_id, course_id`.execute(db),
    sql<{ course_id: string; at: Date | string }>`
      select course_id, max(completed_at) as at from course_completions
      where completed_at > ${after} and completed_at <= ${upTo} group by course_id`.execute(db),
  ])
  const learners = moved.rows.map((row) => ({ userId: row.user_id, courseId: row.course_id }))
  for (let index = 0; index < learners.length; index += FOLD_LEARNERS) {
    await foldLearners(db, learners.slice(index, index + FOLD_LEARNERS))
  }
  const ids = [...new Set([...moved.rows, ...completions.rows].map((row) => row.course_id))]
  for (let index = 0; index < ids.length; index += SNAPSHOT_COURSES) {
    await refreshCourseProgress(db, ids.slice(index, index + SNAPSHOT_COURSES))
  }
  const latest = [...moved.rows, ...completions.rows].reduce((max, row) => Math.max(max, new Date(row.at).getTime()), 0)
  if (latest > new Date(since).getTime()) await writeState(db, PROGRESS_WATERMARK, new Date(latest).toISOString())
  return ids.length
}

/** Every count from nothing: all courses with learners, 500 at a time; the watermark is where it started. */
async function rebuildProgressCounts(db: DB): Promise<number> {
  const started = await sql<{ now: Date | string }>`select now() as now`.execute(db)
  await clearProgressCounts(db)
  const { rows } = await sql<{ course_id: string }>`
    select course_id from lesson_progress
    union select course_id from quiz_attempts where submitted_at is not null
    union select course_id from course_completions`.execute(db)
  const ids = rows.map((row) => row.course_id)
  for (let index = 0; index < ids.length; index += REBUILD_COURSES) {
    await refreshCourseStats(db, ids.slice(index, index + REBUILD_COURSES))
  }
  // What autovacuum would do later: the next runs' plans need the kept tables' statistics.
  await sql`analyze analytics_learner_lessons, analytics_learner_courses, analytics_course_done_counts`.execute(db)
  await writeState(db, PROGRESS_WATERMARK, new Date(started.rows[0]!.now).toISOString())
  return ids.length
}
