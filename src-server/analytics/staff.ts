// The staff-only panels of /admin/analytics: plans (MRR per currency at the end of the range and of the previous
// one, new, churned, trials converted), services (orders, median time from brief to delivery, overdue) and creators
// (top by net earnings per currency, new creators, payouts). Each is a handful of small aggregate queries over indexed
// or small tables (subscriptions, service orders, creators and payouts are thousands of rows, not millions; the
// creators' earnings go through orders' paid_at index), grouped into the range's periods in the database; every
// period is listed (an empty one zero) and amounts are kept per currency, never summed across.
import { type RawBuilder, sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { type Granularity, periodsOf, previousRange } from './periods.ts'

export interface StaffRange {
  from: string
  to: string
  granularity: Granularity
}

const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`)
const endOf = (day: string) => new Date(startOf(day).getTime() + 86_400_000)

/** The period key (periods.ts's) of a timestamp column, computed in the database: a day, an ISO week's Monday, a month. */
function periodKey(column: RawBuilder<unknown>, granularity: Granularity): RawBuilder<string> {
  if (granularity === 'month') return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM')`
  if (granularity === 'week')
    return sql<string>`to_char(date_trunc('week', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`
}

/** 'current' for [from, to], 'previous' for the range before it (the queries read both at once). */
const whichRange = (column: RawBuilder<unknown>, from: string) =>
  sql<'current' | 'previous'>`case when ${column} >= ${startOf(from)} then 'current' else 'previous' end`

type Counts<K extends string> = Record<K, number>
function emptyCounts<K extends string>(keys: readonly K[]): Counts<K> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Counts<K>
}

/** Every period of the range with the counts found (an empty period zero), the totals and the previous totals. */
function countSeries<K extends string>(
  range: StaffRange,
  keys: readonly K[],
  rows: { range: 'current' | 'previous'; period: string; key: K; count: number }[],
) {
  const periods = periodsOf(range.from, range.to, range.granularity)
  const byPeriod = new Map(periods.map((period) => [period, emptyCounts(keys)]))
  const totals = emptyCounts(keys)
  const previous = emptyCounts(keys)
  for (const row of rows) {
    if (row.range === 'previous') {
      previous[row.key] += row.count
      continue
    }
    totals[row.key] += row.count
    const point = byPeriod.get(row.period)
    if (point) point[row.key] += row.count
  }
  return {
    points: periods.map((period) => ({ period, ...(byPeriod.get(period) ?? emptyCounts(keys)) })),
    totals,
    previous,
  }
}

const PLAN_COUNTS = ['newSubscriptions', 'churned', 'trialsConverted'] as const

/**
 * MRR per currency at an instant: subscriptions started before it, not ended and out of their trial, each at its
 * cycle's price (an annual one a twelfth, rounded once per currency). A row kept as a duplicate is not counted.
 */
async function mrrAt(db: DB, at: Date) {
  const { rows } = await sql<{ currency: string; monthly: string; annual: string; subscriptions: number }>`
    select coalesce(s.currency, p.currency) as currency,
      coalesce(sum(coalesce(s.amount_minor, p.monthly_price_minor)) filter (where s.billing_cycle = 'monthly'), 0)
        as monthly,
      coalesce(sum(coalesce(s.amount_minor, p.annual_price_minor)) filter (where s.billing_cycle = 'annual'), 0)
        as annual,
      count(*)::int as subscriptions
    from subscriptions s
    join plans p on p.id = s.plan_id
    where s.duplicate_of is null and s.created_at < ${at} and (s.ended_at is null or s.ended_at >= ${at})
      and (s.trial_ends_at is null or s.trial_ends_at <= ${at})
    group by 1`.execute(db)
  return new Map(
    rows.map((row) => [
      row.currency,
      { mrrMinor: Number(row.monthly) + Math.round(Number(row.annual) / 12), subscriptions: row.subscriptions },
    ]),
  )
}

/** Plans: MRR per currency (end of range vs end of previous range) and new / churned / trials converted per period. */
export async function plansPanel(db: DB, range: StaffRange) {
  const previous = previousRange(range.from, range.to)
  const from = startOf(previous.from)
  const to = endOf(range.to)
  // MRR "now" for a range reaching today is now, not midnight tonight.
  const now = clock.now()
  const end = to < now ? to : now
  const [mrrEnd, mrrBefore, counted] = await Promise.all([
    mrrAt(db, end),
    mrrAt(db, endOf(previous.to)),
    sql<{ range: 'current' | 'previous'; period: string; key: (typeof PLAN_COUNTS)[number]; count: number }>`
      select ${whichRange(sql.ref('at'), range.from)} as range, ${periodKey(sql.ref('at'), range.granularity)} as period,
        key, count(*)::int as count
      from (
        select created_at as at, 'newSubscriptions' as key from subscriptions
          where duplicate_of is null and created_at >= ${from} and created_at < ${to}
        union all
        select ended_at, 'churned' from subscriptions
          where duplicate_of is null and ended_at >= ${from} and ended_at < ${to}
        union all
        select s.trial_ends_at, 'trialsConverted' from subscriptions s
          where s.duplicate_of is null and s.trial_ends_at >= ${from} and s.trial_ends_at < ${to}
            and exists (select 1 from subscription_invoices i
              where i.subscription_id = s.id and i.amount_minor > 0 and i.paid_at >= s.created_at)
      ) events
      group by 1, 2, 3`.execute(db),
  ])
  const currencies = [...new Set([...mrrEnd.keys(), ...mrrBefore.keys()])].sort()
  return {
    mrr: currencies.map((currency) => ({
      currency,
      mrrMinor: mrrEnd.get(currency)?.mrrMinor ?? 0,
      subscriptions: mrrEnd.get(currency)?.subscriptions ?? 0,
      previousMrrMinor: mrrBefore.get(currency)?.mrrMinor ?? 0,
    })),
    ...countSeries(range, PLAN_COUNTS, counted.rows),
  }
}

const SERVICE_COUNTS = ['orders', 'delivered', 'overdue'] as const

/**
 * Services: orders opened, first deliveries and orders that went overdue (due in the period, not delivered by then,
 * not cancelled) per period; the median hours from the brief (or the order) to the delivery, per period and overall.
 */
export async function servicesPanel(db: DB, range: StaffRange) {
  const previous = previousRange(range.from, range.to)
  const from = startOf(previous.from)
  const to = endOf(range.to)
  const now = clock.now()
  const hours = sql`extract(epoch from (delivered_at - coalesce(brief_submitted_at, created_at))) / 3600`
  const [counted, medians] = await Promise.all([
    sql<{ range: 'current' | 'previous'; period: string; key: (typeof SERVICE_COUNTS)[number]; count: number }>`
      select ${whichRange(sql.ref('at'), range.from)} as range, ${periodKey(sql.ref('at'), range.granularity)} as period,
        key, count(*)::int as count
      from (
        select created_at as at, 'orders' as key from service_orders where created_at >= ${from} and created_at < ${to}
        union all
        select delivered_at, 'delivered' from service_orders where delivered_at >= ${from} and delivered_at < ${to}
        union all
        select due_at, 'overdue' from service_orders
          where due_at >= ${from} and due_at < ${to} and due_at < ${now} and status <> 'cancelled'
            and (delivered_at is null or delivered_at > due_at)
      ) events
      group by 1, 2, 3`.execute(db),
    sql<{ range: 'current' | 'previous'; period: string | null; median: number | null }>`
      select range, period, percentile_cont(0.5) within group (order by hours) as median
      from (
        select ${whichRange(sql.ref('delivered_at'), range.from)} as range,
          ${periodKey(sql.ref('delivered_at'), range.granularity)} as period, ${hours} as hours
        from service_orders where delivered_at >= ${from} and delivered_at < ${to}
      ) delivered
      group by grouping sets ((range, period), (range))`.execute(db),
  ])
  const series = countSeries(range, SERVICE_COUNTS, counted.rows)
  const rounded = (value: number | null | undefined) => (value == null ? null : Math.round(Number(value) * 10) / 10)
  const periodMedian = new Map(
    medians.rows.filter((row) => row.range === 'current' && row.period).map((row) => [row.period, row.median]),
  )
  const overall = (which: 'current' | 'previous') =>
    rounded(medians.rows.find((row) => row.range === which && row.period === null)?.median)
  return {
    points: series.points.map((point) => ({ ...point, medianHours: rounded(periodMedian.get(point.period)) })),
    totals: { ...series.totals, medianHours: overall('current') },
    previous: { ...series.previous, medianHours: overall('previous') },
  }
}

export const TOP_CREATORS = 10

/**
 * Creators: the top creators per currency by net earnings (their share of the lines paid in the range less the
 * share of lines given back in it), new creators per period, and payouts paid per currency and period.
 */
export async function creatorsPanel(db: DB, range: StaffRange) {
  const previous = previousRange(range.from, range.to)
  const from = startOf(previous.from)
  const currentFrom = startOf(range.from)
  const to = endOf(range.to)
  const [top, joined, payouts] = await Promise.all([
    sql<{ creator_id: string; name: string | null; currency: 'USD' | 'GBP'; net: string; sales: number }>`
      with moves as (
        select es.creator_id, es.currency, es.creator_minor as amount, 1 as sale
        from orders o join earning_shares es on es.order_id = o.id
        where o.paid_at >= ${currentFrom} and o.paid_at < ${to}
        union all
        select es.creator_id, es.currency, -es.creator_minor, 0
        from order_items oi join earning_shares es on es.order_item_id = oi.id
        where oi.refunded_at >= ${currentFrom} and oi.refunded_at < ${to}
      ), ranked as (
        select creator_id, currency, sum(amount) as net, sum(sale)::int as sales,
          row_number() over (partition by currency order by sum(amount) desc, creator_id) as rank
        from moves group by 1, 2
      )
      select r.creator_id, i.name, r.currency, r.net, r.sales
      from ranked r
      left join creators c on c.user_id = r.creator_id
      left join instructors i on i.id = c.instructor_id
      where r.rank <= ${TOP_CREATORS}
      order by r.currency, r.rank`.execute(db),
    sql<{ range: 'current' | 'previous'; period: string; key: 'newCreators'; count: number }>`
      select ${whichRange(sql.ref('created_at'), range.from)} as range,
        ${periodKey(sql.ref('created_at'), range.granularity)} as period, 'newCreators' as key, count(*)::int as count
      from creators where created_at >= ${from} and created_at < ${to}
      group by 1, 2`.execute(db),
    sql<{ range: 'current' | 'previous'; period: string; currency: 'USD' | 'GBP'; payouts: number; amount: string }>`
      select ${whichRange(sql.ref('paid_at'), range.from)} as range,
        ${periodKey(sql.ref('paid_at'), range.granularity)} as period, currency,
        count(*)::int as payouts, sum(amount_minor) as amount
      from creator_payouts where status = 'paid' and paid_at >= ${from} and paid_at < ${to}
      group by 1, 2, 3`.execute(db),
  ])
  const periods = periodsOf(range.from, range.to, range.granularity)
  const currencies = [...new Set(payouts.rows.map((row) => row.currency))].sort()
  return {
    top: top.rows.map((row) => ({
      creatorId: row.creator_id,
      name: row.name ?? row.creator_id,
      currency: row.currency,
      netMinor: Number(row.net),
      sales: row.sales,
    })),
    ...countSeries(range, ['newCreators'] as const, joined.rows),
    payouts: currencies.map((currency) => {
      const mine = payouts.rows.filter((row) => row.currency === currency)
      const sum = (rows: typeof mine) => ({
        payouts: rows.reduce((total, row) => total + row.payouts, 0),
        amountMinor: rows.reduce((total, row) => total + Number(row.amount), 0),
      })
      const current = mine.filter((row) => row.range === 'current')
      return {
        currency,
        points: periods.map((period) => ({ period, ...sum(current.filter((row) => row.period === period)) })),
        totals: sum(current),
        previous: sum(mine.filter((row) => row.range === 'previous')),
      }
    }),
  }
}

/** The three staff panels for a range. */
export async function staffPanels(db: DB, range: StaffRange) {
  const [plans, services, creators] = await Promise.all([
    plansPanel(db, range),
    servicesPanel(db, range),
    creatorsPanel(db, range),
  ])
  return { plans, services, creators }
}

export type StaffPanels = Awaited<ReturnType<typeof staffPanels>>
