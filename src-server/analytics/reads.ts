// What the analytics pages read: finished days from the rollup tables, days after the rollup's watermark (today
// always) live from the orders, the counters and the snapshots. Amounts are kept per currency, never summed across.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'
import { flushCourseEvents } from './counters.ts'
import { type Granularity, periodOf, periodsOf, previousRange } from './periods.ts'
import { addDays, readState, SALES_WATERMARK } from './rollup.ts'
import { type Money, type SalesRow, type Scope, salesRows, scopeFilter } from './sales.ts'
import { contenders, readTopBlocks } from './top.ts'

export interface Range {
  from: string
  to: string
  granularity: Granularity
}

const zeroMoney = (): Money => ({
  grossMinor: 0,
  discountMinor: 0,
  refundMinor: 0,
  platformFeeMinor: 0,
  netMinor: 0,
  units: 0,
  refunds: 0,
})
function addMoney(into: Money, row: Money) {
  into.grossMinor += row.grossMinor
  into.discountMinor += row.discountMinor
  into.refundMinor += row.refundMinor
  into.platformFeeMinor += row.platformFeeMinor
  into.netMinor += row.netMinor
  into.units += row.units
  into.refunds += row.refunds
}

const SUMS = [
  sql<string>`sum(gross_minor)`.as('gross'),
  sql<string>`sum(discount_minor)`.as('discount'),
  sql<string>`sum(refund_minor)`.as('refund'),
  sql<string>`sum(platform_fee_minor)`.as('fee'),
  sql<string>`sum(net_minor)`.as('net'),
  sql<string>`sum(units)`.as('units'),
  sql<string>`sum(units_direct)`.as('direct'),
  sql<string>`sum(units_coupon)`.as('coupon'),
  sql<string>`sum(units_bundle)`.as('bundle'),
  sql<string>`sum(units_gift)`.as('gift'),
  sql<string>`sum(units_search)`.as('search'),
  sql<string>`sum(units_catalogue)`.as('catalogue'),
  sql<string>`sum(refunds)`.as('refunds'),
]

type Summed = Record<
  | 'gross'
  | 'discount'
  | 'refund'
  | 'fee'
  | 'net'
  | 'units'
  | 'direct'
  | 'coupon'
  | 'bundle'
  | 'gift'
  | 'search'
  | 'catalogue'
  | 'refunds',
  string
>
const toRow = (courseId: string, day: string, currency: 'USD' | 'GBP', row: Summed): SalesRow => ({
  courseId,
  day,
  currency,
  grossMinor: Number(row.gross),
  discountMinor: Number(row.discount),
  refundMinor: Number(row.refund),
  platformFeeMinor: Number(row.fee),
  netMinor: Number(row.net),
  units: Number(row.units),
  unitsDirect: Number(row.direct),
  unitsCoupon: Number(row.coupon),
  unitsBundle: Number(row.bundle),
  unitsGift: Number(row.gift),
  unitsSearch: Number(row.search),
  unitsCatalogue: Number(row.catalogue),
  refunds: Number(row.refunds),
})

/** Rows with courseId '' are per day and currency (every course summed); the rest per course over the range. */
interface RangeSales {
  byDay: SalesRow[]
  byCourse: SalesRow[]
}

/**
 * The range's sales: rolled days summed in the database (per day and currency, and the top courses), the days after
 * the rollup's watermark live (today always), merged.
 */
async function rangeSales(db: DB, scope: Scope, from: string, to: string, courses: boolean): Promise<RangeSales> {
  const watermark = await readState(db, SALES_WATERMARK)
  const rolledTo = watermark && watermark < to ? watermark : to
  const liveFrom = watermark && watermark >= from ? addDays(watermark, 1) : from
  const livePromise = liveFrom <= to ? salesRows(db, liveFrom, to, scope) : Promise.resolve([])
  const byDay: SalesRow[] = []
  const byCourse: SalesRow[] = []
  if (watermark && from <= rolledTo) {
    const base = db
      .selectFrom('analytics_sales_daily')
      .where('day', '>=', from)
      .where('day', '<=', rolledTo)
      .where(scopeFilter(sql.ref('course_id'), scope) as never)
    // The shop's days from its daily totals (one row per day and currency), not from every course's rows.
    const [days, perCourse] = await Promise.all([
      scope.kind === 'shop'
        ? db
            .selectFrom('analytics_shop_sales_daily')
            .where('day', '>=', from)
            .where('day', '<=', rolledTo)
            .select([sql<string>`day::text`.as('day'), 'currency', ...SUMS])
            .groupBy(['day', 'currency'])
            .execute()
        : base
            .select([sql<string>`day::text`.as('day'), 'currency', ...SUMS])
            .groupBy(['day', 'currency'])
            .execute(),
      courses ? livePromise.then((live) => rolledCourses(db, scope, from, rolledTo, live)) : [],
    ])
    for (const row of days) byDay.push(toRow('', row.day, row.currency, row as unknown as Summed))
    for (const row of perCourse) byCourse.push(toRow(row.course_id, '', row.currency, row as unknown as Summed))
  }
  const live = await livePromise
  byDay.push(...live)
  byCourse.push(...live)
  return { byDay, byCourse }
}

/**
 * The rolled days' sums of the courses that can be among the best sellers. The shop's from the job's lists of the
 * blocks of days making up the range (top.ts): only the course-currency groups that can still reach the
 * TOP_COURSES-th best, summed exactly. Else (a creator's courses, or lists that cannot settle it) the best sellers
 * first (course and currency by units, a narrow aggregate), then their sums: summing every column of every course of
 * a year spilled to disk and took a second at 100k courses.
 */
async function rolledCourses(db: DB, scope: Scope, from: string, rolledTo: string, live: SalesRow[]) {
  const base = db
    .selectFrom('analytics_sales_daily')
    .where('day', '>=', from)
    .where('day', '<=', rolledTo)
    .where(scopeFilter(sql.ref('course_id'), scope) as never)
  if (scope.kind === 'shop') {
    const lists = await readTopBlocks(db, from, rolledTo)
    const candidates = lists && contenders(lists.restMax, lists.listed, live, TOP_COURSES)
    if (candidates) {
      if (candidates.length === 0) return []
      return base
        .where('course_id', 'in', [...new Set(candidates.map((candidate) => candidate.courseId))])
        .select(['course_id', 'currency', ...SUMS])
        .groupBy(['course_id', 'currency'])
        .execute()
    }
  }
  return db
    .selectFrom('analytics_sales_daily as s')
    .innerJoin(
      base
        .select(['course_id', 'currency'])
        .groupBy(['course_id', 'currency'])
        .orderBy(sql`sum(units)`, 'desc')
        .orderBy('course_id')
        .limit(TOP_COURSES * 4)
        .as('top'),
      (join) => join.onRef('top.course_id', '=', 's.course_id').onRef('top.currency', '=', 's.currency'),
    )
    .where('s.day', '>=', from)
    .where('s.day', '<=', rolledTo)
    .select(['s.course_id', 's.currency', ...SUMS])
    .groupBy(['s.course_id', 's.currency'])
    .execute()
}

async function courseTitles(db: DB, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('courses').select(['id', 'title']).where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [row.id, row.title]))
}

export const TOP_COURSES = 50

export async function salesReport(db: DB, scope: Scope, range: Range) {
  const previous = previousRange(range.from, range.to)
  const [current, before] = await Promise.all([
    rangeSales(db, scope, range.from, range.to, true),
    rangeSales(db, scope, previous.from, previous.to, false),
  ])
  const rows = current.byDay
  const previousRows = before.byDay
  const periods = periodsOf(range.from, range.to, range.granularity)
  const currencies = [...new Set([...rows, ...previousRows].map((row) => row.currency))].sort()
  const revenue = currencies.map((currency) => {
    const byPeriod = new Map(periods.map((period) => [period, zeroMoney()]))
    const totals = zeroMoney()
    for (const row of rows.filter((r) => r.currency === currency)) {
      addMoney(byPeriod.get(periodOf(row.day, range.granularity)) ?? zeroMoney(), row)
      addMoney(totals, row)
    }
    const previousTotals = zeroMoney()
    for (const row of previousRows.filter((r) => r.currency === currency)) addMoney(previousTotals, row)
    return {
      currency,
      points: periods.map((period) => ({ period, ...(byPeriod.get(period) ?? zeroMoney()) })),
      totals,
      previous: previousTotals,
    }
  })
  const channels = { direct: 0, search: 0, catalogue: 0, coupon: 0, bundle: 0, gift: 0 }
  const perCourse = new Map<string, Money & { courseId: string; currency: string }>()
  for (const row of rows) {
    channels.direct += row.unitsDirect
    channels.coupon += row.unitsCoupon
    channels.bundle += row.unitsBundle
    channels.gift += row.unitsGift
    channels.search += row.unitsSearch
    channels.catalogue += row.unitsCatalogue
  }
  for (const row of current.byCourse) {
    const key = `${row.courseId}|${row.currency}`
    const course = perCourse.get(key) ?? { courseId: row.courseId, currency: row.currency, ...zeroMoney() }
    addMoney(course, row)
    perCourse.set(key, course)
  }
  const top = [...perCourse.values()]
    .sort((a, b) => b.units - a.units || b.netMinor - a.netMinor || a.courseId.localeCompare(b.courseId))
    .slice(0, TOP_COURSES)
  const titles = await courseTitles(db, [...new Set(top.map((course) => course.courseId))])
  const unitsByPeriod = new Map<string, number>()
  for (const row of rows) {
    const period = periodOf(row.day, range.granularity)
    unitsByPeriod.set(period, (unitsByPeriod.get(period) ?? 0) + row.units)
  }
  return {
    periods,
    revenue,
    channels,
    courses: top.map((course) => ({ ...course, title: titles.get(course.courseId) ?? course.courseId })),
    unitsByPeriod,
    previousUnits: previousRows.reduce((sum, row) => sum + row.units, 0),
  }
}

/**
 * Course-page views and add-to-cart per period (counters), with purchases (units sold) beside them, and the views by
 * the way the visitor came (a search result, browsing the catalogue, else direct) per period and over the range.
 */
export async function funnelReport(db: DB, scope: Scope, range: Range, unitsByPeriod: Map<string, number>) {
  await flushCourseEvents(db)
  const previous = previousRange(range.from, range.to)
  // The shop's rolled days from its daily totals; the days after the watermark (and a creator's courses) from the
  // counters.
  const watermark = scope.kind === 'shop' ? await readState(db, SALES_WATERMARK) : null
  const rolledTo = watermark && watermark < range.to ? watermark : range.to
  const countsFrom = watermark && watermark >= previous.from ? addDays(watermark, 1) : previous.from
  const columns = [
    sql<string>`day::text`.as('day'),
    sql<string>`sum(views)`.as('views'),
    sql<string>`sum(views_search)`.as('views_search'),
    sql<string>`sum(views_catalogue)`.as('views_catalogue'),
    sql<string>`sum(cart_adds)`.as('cart_adds'),
  ]
  const [rolled, counted] = await Promise.all([
    watermark && previous.from <= rolledTo
      ? db
          .selectFrom('analytics_shop_views_daily')
          .select(columns)
          .where('day', '>=', previous.from)
          .where('day', '<=', rolledTo)
          .groupBy('day')
          .execute()
      : [],
    countsFrom <= range.to
      ? db
          .selectFrom('course_event_counts')
          .select(columns)
          .where('day', '>=', countsFrom)
          .where('day', '<=', range.to)
          .where(scopeFilter(sql.ref('course_id'), scope) as never)
          .groupBy('day')
          .execute()
      : [],
  ])
  const rows = [...rolled, ...counted]
  const periods = periodsOf(range.from, range.to, range.granularity)
  const points = new Map(periods.map((period) => [period, { period, views: 0, cartAdds: 0, purchases: 0 }]))
  const byChannel = new Map(periods.map((period) => [period, { period, direct: 0, search: 0, catalogue: 0 }]))
  const previousTotals = { views: 0, cartAdds: 0 }
  for (const row of rows) {
    if (row.day < range.from) {
      previousTotals.views += Number(row.views)
      previousTotals.cartAdds += Number(row.cart_adds)
      continue
    }
    const period = periodOf(row.day, range.granularity)
    const point = points.get(period)
    const channels = byChannel.get(period)
    if (!point || !channels) continue
    point.views += Number(row.views)
    point.cartAdds += Number(row.cart_adds)
    channels.search += Number(row.views_search)
    channels.catalogue += Number(row.views_catalogue)
    channels.direct += Number(row.views) - Number(row.views_search) - Number(row.views_catalogue)
  }
  for (const [period, units] of unitsByPeriod) {
    const point = points.get(period)
    if (point) point.purchases = units
  }
  const list = [...points.values()]
  const totals = list.reduce(
    (sum, point) => ({
      views: sum.views + point.views,
      cartAdds: sum.cartAdds + point.cartAdds,
      purchases: sum.purchases + point.purchases,
    }),
    { views: 0, cartAdds: 0, purchases: 0 },
  )
  const channelPoints = [...byChannel.values()]
  const channels = channelPoints.reduce(
    (sum, point) => ({
      direct: sum.direct + point.direct,
      search: sum.search + point.search,
      catalogue: sum.catalogue + point.catalogue,
    }),
    { direct: 0, search: 0, catalogue: 0 },
  )
  return { points: list, totals, previous: previousTotals, views: { points: channelPoints, totals: channels } }
}

/** Learners per course by how far they got (the job's snapshot), the courses with most learners first. */
export async function learnersReport(db: DB, scope: Scope) {
  return db
    .selectFrom('analytics_course_progress as p')
    .innerJoin('courses as c', 'c.id', 'p.course_id')
    .select(['p.course_id as courseId', 'c.title', 'p.started', 'p.p25', 'p.p50', 'p.p75', 'p.completed'])
    .where(scopeFilter(sql.ref('p.course_id'), scope) as never)
    .orderBy('p.started', 'desc')
    .orderBy('p.course_id')
    .limit(TOP_COURSES)
    .execute()
}

/** One course's lessons in curriculum order: reach, completion, video stop buckets, quiz pass rate. */
export async function lessonsReport(db: DB, courseId: string) {
  const rows = await db
    .selectFrom('lessons as l')
    .innerJoin('course_sections as s', 's.id', 'l.section_id')
    .leftJoin('analytics_lesson_stats as a', (join) =>
      join.onRef('a.lesson_id', '=', 'l.id').onRef('a.course_id', '=', 'l.course_id'),
    )
    .select([
      'l.id as lessonId',
      'l.title',
      'l.kind',
      'l.duration_seconds as durationSeconds',
      'a.reached',
      'a.completed',
      'a.stop_buckets as stopBuckets',
      'a.quiz_takers as quizTakers',
      'a.quiz_passers as quizPassers',
    ])
    .where('l.course_id', '=', courseId)
    .where('l.pending_review', '=', false)
    .orderBy('s.position')
    .orderBy('l.position')
    .execute()
  const started = await db
    .selectFrom('analytics_course_progress')
    .select('started')
    .where('course_id', '=', courseId)
    .executeTakeFirst()
  return {
    learners: started?.started ?? 0,
    // A lesson nobody has reached yet has no stats row: zeros.
    lessons: rows.map((row) => ({
      ...row,
      reached: row.reached ?? 0,
      completed: row.completed ?? 0,
      stopBuckets: row.stopBuckets ?? [],
      quizTakers: row.quizTakers ?? 0,
      quizPassers: row.quizPassers ?? 0,
    })),
  }
}
