// Sales of courses per course, UTC day and currency, computed from the orders' lines: a line counts on the day its
// order was paid (gross, its coupon discount, the platform's fee kept from it, its channel) and again, as a refund,
// on the day it was given back (its price after discount; the platform's fee returned). net = gross - discounts -
// refunds - platform fee. Channels are what the lines record: gift (a gift order), bundle (sold in a bundle), coupon
// (a discount on the line), search and catalogue (the way the buyer reached the course page, kept on the line from
// the cart: a catalogue search result, or browsing the catalogue), direct (everything else).
import { type RawBuilder, sql } from 'kysely'
import type { DB } from '../kernel/db.ts'

/** Whose courses: every course, or the courses a user owns or co-teaches. */
export type Scope = { kind: 'shop' } | { kind: 'instructor'; userId: string }

/** A sum of sales: what was taken, given off and back, kept as the platform's fee, and the units sold and refunded. */
export interface Money {
  grossMinor: number
  discountMinor: number
  refundMinor: number
  platformFeeMinor: number
  netMinor: number
  units: number
  refunds: number
}

export interface SalesRow extends Money {
  courseId: string
  day: string
  currency: 'USD' | 'GBP'
  unitsDirect: number
  unitsCoupon: number
  unitsBundle: number
  unitsGift: number
  unitsSearch: number
  unitsCatalogue: number
}

export function scopeFilter(column: RawBuilder<unknown>, scope: Scope): RawBuilder<unknown> {
  if (scope.kind === 'shop') return sql`true`
  return sql`${column} in (select course_id from course_instructors where user_id = ${scope.userId})`
}

const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`)

/** Lines sold or refunded in [fromDay, toDay] (inclusive UTC days), per course, day and currency. */
export async function salesRows(db: DB, fromDay: string, toDay: string, scope: Scope): Promise<SalesRow[]> {
  const from = startOf(fromDay)
  const to = new Date(startOf(toDay).getTime() + 86_400_000)
  const sold = scopeFilter(sql.ref('oi.course_id'), scope)
  const { rows } = await sql<Record<string, string | number>>`
    with sold as (
      select oi.course_id, to_char(o.paid_at at time zone 'UTC', 'YYYY-MM-DD') as day, o.currency,
        sum(oi.unit_price_minor) as gross, sum(oi.discount_minor) as discount,
        count(*) as units,
        count(*) filter (where o.source = 'gift') as units_gift,
        count(*) filter (where o.source <> 'gift' and oi.bundle_id is not null) as units_bundle,
        count(*) filter (where o.source <> 'gift' and oi.bundle_id is null and oi.discount_minor > 0) as units_coupon,
        count(*) filter (where o.source <> 'gift' and oi.bundle_id is null and oi.discount_minor = 0
          and oi.channel = 'search') as units_search,
        count(*) filter (where o.source <> 'gift' and oi.bundle_id is null and oi.discount_minor = 0
          and oi.channel = 'catalogue') as units_catalogue,
        count(*) filter (where o.source <> 'gift' and oi.bundle_id is null and oi.discount_minor = 0
          and oi.channel is null) as units_direct,
        coalesce(sum(es.platform_fee_minor), 0) as fee
      from order_items oi
      join orders o on o.id = oi.order_id
      left join earning_shares es on es.order_item_id = oi.id
      where oi.kind = 'course' and o.paid_at >= ${from} and o.paid_at < ${to} and ${sold}
      group by 1, 2, 3
    ), refunded as (
      select oi.course_id, to_char(oi.refunded_at at time zone 'UTC', 'YYYY-MM-DD') as day, o.currency,
        sum(oi.unit_price_minor - oi.discount_minor) as refund, count(*) as refunds,
        coalesce(sum(es.platform_fee_minor), 0) as fee_back
      from order_items oi
      join orders o on o.id = oi.order_id
      left join earning_shares es on es.order_item_id = oi.id
      where oi.kind = 'course' and oi.refunded_at >= ${from} and oi.refunded_at < ${to} and o.paid_at is not null
        and ${sold}
      group by 1, 2, 3
    )
    select coalesce(s.course_id, r.course_id) as course_id, coalesce(s.day, r.day) as day,
      coalesce(s.currency, r.currency) as currency,
      coalesce(s.gross, 0) as gross, coalesce(s.discount, 0) as discount, coalesce(r.refund, 0) as refund,
      coalesce(s.fee, 0) - coalesce(r.fee_back, 0) as fee,
      coalesce(s.units, 0) as units, coalesce(s.units_direct, 0) as units_direct,
      coalesce(s.units_coupon, 0) as units_coupon, coalesce(s.units_bundle, 0) as units_bundle,
      coalesce(s.units_gift, 0) as units_gift, coalesce(s.units_search, 0) as units_search,
      coalesce(s.units_catalogue, 0) as units_catalogue, coalesce(r.refunds, 0) as refunds
    from sold s
    full outer join refunded r on r.course_id = s.course_id and r.day = s.day and r.currency = s.currency
    order by 2, 1, 3`.execute(db)
  return rows.map((row) => {
    const gross = Number(row.gross)
    const discount = Number(row.discount)
    const refund = Number(row.refund)
    const fee = Number(row.fee)
    return {
      courseId: String(row.course_id),
      day: String(row.day),
      currency: row.currency as 'USD' | 'GBP',
      grossMinor: gross,
      discountMinor: discount,
      refundMinor: refund,
      platformFeeMinor: fee,
      netMinor: gross - discount - refund - fee,
      units: Number(row.units),
      unitsDirect: Number(row.units_direct),
      unitsCoupon: Number(row.units_coupon),
      unitsBundle: Number(row.units_bundle),
      unitsGift: Number(row.units_gift),
      unitsSearch: Number(row.units_search),
      unitsCatalogue: Number(row.units_catalogue),
      refunds: Number(row.refunds),
    }
  })
}
