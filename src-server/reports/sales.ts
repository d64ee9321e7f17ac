// Orders and revenue of the last 30 days, per day (UTC) and per currency, counted in the database. Revenue is what
// the orders took less what has been given back of it since (captured minus refunded: refunds, lost disputes), on the
// day each order was paid, over every order that took money, refunded or not (decision 0133).

import { sql } from 'kysely'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export const SALES_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

/** The 30 UTC days ending today, as 'YYYY-MM-DD'. */
export function lastDays(now: Date, count = SALES_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: count }, (_, index) =>
    new Date(today - (count - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  )
}

export async function salesLastDays(db: DB, now = clock.now()) {
  const days = lastDays(now)
  const since = new Date(`${days[0]}T00:00:00Z`)
  const [paid, placed] = await Promise.all([
    db
      .selectFrom('orders')
      .select([
        sql<string>`to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
        'currency',
        sql<string>`count(*)`.as('orders'),
        sql<string>`coalesce(sum(captured_minor - refunded_minor), 0)`.as('revenue'),
      ])
      // Took money: a paid order whatever became of it since (partly or wholly refunded, disputed).
      .where('paid_at', '>=', since)
      .where('captured_minor', '>', 0)
      .groupBy(['day', 'currency'])
      .execute(),
    db
      .selectFrom('orders')
      .select(sql<string>`count(*)`.as('n'))
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow(),
  ])
  const currencies = [...new Set(paid.map((row) => row.currency))].sort()
  const series = currencies.map((currency) => {
    const byDay = new Map(paid.filter((row) => row.currency === currency).map((row) => [row.day, row]))
    const points = days.map((day) => ({
      day,
      orders: Number(byDay.get(day)?.orders ?? 0),
      revenueMinor: Number(byDay.get(day)?.revenue ?? 0),
    }))
    return {
      currency,
      points,
      orders: points.reduce((sum, point) => sum + point.orders, 0),
      revenueMinor: points.reduce((sum, point) => sum + point.revenueMinor, 0),
    }
  })
  return { from: days[0]!, to: days[days.length - 1]!, ordersPlaced: Number(placed.n), series }
}
