// What buyers say about a course: ratings over time (the visible reviews given each UTC day and their stars) and
// refunds with their reasons (each course line given back that day, under the buyer's reason when they asked for it or
// for its bundle, else the note staff wrote; per currency, never summed across). The job rolls finished days up with
// the day's sales (rollup.ts); the pages read rolled days from the tables and the days after the watermark live
// (feedback-reads.ts).
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'
import { insertInChunks } from './insert-chunks.ts'
import { type Scope, scopeFilter } from './sales.ts'

/** A reason longer than this is cut (a free-text request); the table groups by the text. */
export const REASON_LENGTH = 200
export const NO_REASON = ''

export interface RatingRow {
  courseId: string
  day: string
  reviews: number
  stars: number
}

export interface RefundReasonRow {
  courseId: string
  day: string
  currency: 'USD' | 'GBP'
  reason: string
  refunds: number
  refundMinor: number
}

const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`)
const endOf = (day: string) => new Date(startOf(day).getTime() + 86_400_000)

/** Reviews given in [fromDay, toDay] per course and day: those not hidden and whose author still holds the course. */
export async function ratingRows(db: DB, fromDay: string, toDay: string, scope: Scope): Promise<RatingRow[]> {
  const { rows } = await sql<{ course_id: string; day: string; reviews: number; stars: number }>`
    select course_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
      count(*)::int as reviews, sum(rating)::int as stars
    from course_reviews
    where created_at >= ${startOf(fromDay)} and created_at < ${endOf(toDay)}
      and hidden_at is null and not access_revoked and ${scopeFilter(sql.ref('course_id'), scope)}
    group by 1, 2
    order by 2, 1`.execute(db)
  return rows.map((row) => ({ courseId: row.course_id, day: row.day, reviews: row.reviews, stars: row.stars }))
}

/** Course lines given back in [fromDay, toDay] per course, day, currency and reason. */
export async function refundReasonRows(
  db: DB,
  fromDay: string,
  toDay: string,
  scope: Scope,
): Promise<RefundReasonRow[]> {
  const { rows } = await sql<{
    course_id: string
    day: string
    currency: 'USD' | 'GBP'
    reason: string
    refunds: number
    refund: string
  }>`
    select oi.course_id, to_char(oi.refunded_at at time zone 'UTC', 'YYYY-MM-DD') as day, o.currency,
      left(coalesce(nullif(trim(rq.reason), ''), nullif(trim(rf.reason), ''), ${NO_REASON}), ${REASON_LENGTH}) as reason,
      count(*)::int as refunds, sum(oi.unit_price_minor - oi.discount_minor) as refund
    from order_items oi
    join orders o on o.id = oi.order_id
    left join refunds rf on rf.id = oi.refund_id
    left join refund_requests rq on rq.status = 'approved' and rq.order_id = oi.order_id
      and (rq.order_item_id = oi.id or (rq.bundle_id = oi.bundle_id and oi.refund_id = (
        select asked.refund_id from order_items asked where asked.id = rq.order_item_id)))
    where oi.kind = 'course' and oi.refunded_at >= ${startOf(fromDay)} and oi.refunded_at < ${endOf(toDay)}
      and o.paid_at is not null and ${scopeFilter(sql.ref('oi.course_id'), scope)}
    group by 1, 2, 3, 4
    order by 2, 1, 3, 4`.execute(db)
  return rows.map((row) => ({
    courseId: row.course_id,
    day: row.day,
    currency: row.currency,
    reason: row.reason,
    refunds: row.refunds,
    refundMinor: Number(row.refund),
  }))
}

/** Replaces one day's ratings and refund reasons (inside the day's rollup transaction, under its lock). */
export async function rollupFeedbackDay(trx: DB, day: string): Promise<void> {
  const [ratings, reasons] = await Promise.all([
    ratingRows(trx, day, day, { kind: 'shop' }),
    refundReasonRows(trx, day, day, { kind: 'shop' }),
  ])
  await trx.deleteFrom('analytics_ratings_daily').where('day', '=', day).execute()
  await trx.deleteFrom('analytics_refund_reasons_daily').where('day', '=', day).execute()
  await insertInChunks(
    trx,
    'analytics_ratings_daily',
    ratings.map((row) => ({ course_id: row.courseId, day: row.day, reviews: row.reviews, stars: row.stars })),
  )
  await insertInChunks(
    trx,
    'analytics_refund_reasons_daily',
    reasons.map((row) => ({
      course_id: row.courseId,
      day: row.day,
      currency: row.currency,
      reason: row.reason,
      refunds: row.refunds,
      refund_minor: row.refundMinor,
    })),
  )
}
