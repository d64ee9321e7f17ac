// The analytics pages' ratings over time and refunds by reason: finished days from the rollup tables (feedback.ts
// fills them with each day's sales), days after the rollup's watermark (today always) live.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'
import { type RatingRow, type RefundReasonRow, ratingRows, refundReasonRows } from './feedback.ts'
import { type Granularity, periodOf, periodsOf, previousRange } from './periods.ts'
import { addDays, readState, SALES_WATERMARK } from './rollup.ts'
import { type Scope, scopeFilter } from './sales.ts'

/** Rolled days from the tables, summed in the database per day (and reason); later days live. */
async function rangeFeedback(db: DB, scope: Scope, from: string, to: string) {
  const watermark = await readState(db, SALES_WATERMARK)
  const rolledTo = watermark && watermark < to ? watermark : to
  const ratings: Omit<RatingRow, 'courseId'>[] = []
  const reasons: Omit<RefundReasonRow, 'courseId' | 'day'>[] = []
  if (watermark && from <= rolledTo) {
    const [rolledRatings, rolledReasons] = await Promise.all([
      db
        .selectFrom('analytics_ratings_daily')
        .select([
          sql<string>`day::text`.as('day'),
          sql<string>`sum(reviews)`.as('reviews'),
          sql<string>`sum(stars)`.as('stars'),
        ])
        .where('day', '>=', from)
        .where('day', '<=', rolledTo)
        .where(scopeFilter(sql.ref('course_id'), scope) as never)
        .groupBy('day')
        .execute(),
      db
        .selectFrom('analytics_refund_reasons_daily')
        .select([
          'currency',
          'reason',
          sql<string>`sum(refunds)`.as('refunds'),
          sql<string>`sum(refund_minor)`.as('refund'),
        ])
        .where('day', '>=', from)
        .where('day', '<=', rolledTo)
        .where(scopeFilter(sql.ref('course_id'), scope) as never)
        .groupBy(['currency', 'reason'])
        .execute(),
    ])
    for (const row of rolledRatings)
      ratings.push({ day: row.day, reviews: Number(row.reviews), stars: Number(row.stars) })
    for (const row of rolledReasons) {
      reasons.push({
        currency: row.currency,
        reason: row.reason,
        refunds: Number(row.refunds),
        refundMinor: Number(row.refund),
      })
    }
  }
  const liveFrom = watermark && watermark >= from ? addDays(watermark, 1) : from
  if (liveFrom <= to) {
    const [liveRatings, liveReasons] = await Promise.all([
      ratingRows(db, liveFrom, to, scope),
      refundReasonRows(db, liveFrom, to, scope),
    ])
    ratings.push(...liveRatings)
    reasons.push(...liveReasons)
  }
  return { ratings, reasons }
}

const average = (stars: number, reviews: number) => (reviews > 0 ? Math.round((stars / reviews) * 10) / 10 : 0)

/** Ratings per period (every period listed, an empty one zero) and refunds per reason and currency. */
export async function feedbackReport(
  db: DB,
  scope: Scope,
  range: { from: string; to: string; granularity: Granularity },
) {
  const previous = previousRange(range.from, range.to)
  const [current, before] = await Promise.all([
    rangeFeedback(db, scope, range.from, range.to),
    rangeFeedback(db, scope, previous.from, previous.to),
  ])
  const periods = periodsOf(range.from, range.to, range.granularity)
  const byPeriod = new Map(periods.map((period) => [period, { reviews: 0, stars: 0 }]))
  for (const row of current.ratings) {
    const point = byPeriod.get(periodOf(row.day, range.granularity))
    if (!point) continue
    point.reviews += row.reviews
    point.stars += row.stars
  }
  const sum = (rows: { reviews: number; stars: number }[]) =>
    rows.reduce((total, row) => ({ reviews: total.reviews + row.reviews, stars: total.stars + row.stars }), {
      reviews: 0,
      stars: 0,
    })
  const totals = sum([...byPeriod.values()])
  const previousTotals = sum(before.ratings)

  const reasons = new Map<string, { currency: 'USD' | 'GBP'; reason: string; refunds: number; refundMinor: number }>()
  for (const row of current.reasons) {
    const key = `${row.currency}\u0000${row.reason}`
    const entry = reasons.get(key) ?? { currency: row.currency, reason: row.reason, refunds: 0, refundMinor: 0 }
    entry.refunds += row.refunds
    entry.refundMinor += row.refundMinor
    reasons.set(key, entry)
  }
  return {
    ratings: {
      points: periods.map((period) => {
        const point = byPeriod.get(period) ?? { reviews: 0, stars: 0 }
        return { period, reviews: point.reviews, average: average(point.stars, point.reviews) }
      }),
      totals: { reviews: totals.reviews, average: average(totals.stars, totals.reviews) },
      previous: { reviews: previousTotals.reviews, average: average(previousTotals.stars, previousTotals.reviews) },
    },
    refundReasons: {
      rows: [...reasons.values()].sort(
        (a, b) => a.currency.localeCompare(b.currency) || b.refunds - a.refunds || a.reason.localeCompare(b.reason),
      ),
      refunds: [...reasons.values()].reduce((total, row) => total + row.refunds, 0),
      previousRefunds: before.reasons.reduce((total, row) => total + row.refunds, 0),
    },
  }
}
