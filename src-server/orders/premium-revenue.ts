// Premium's revenue of a month, per currency, for the Premium pool (flows/premium-pool.ts): what plan subscriptions
// took in the month and what was given back in it. Taken: the plan lines of orders paid in the month, less their
// coupon share (checkout's first charge, PayPal and bank-transfer renewals; a free trial took nothing and counts
// nothing) and Stripe's paid renewal invoices less their tax (the first invoice is the checkout's order, counted
// once). Given back:
// plan lines refunded or lost to a dispute in the month, at what the line was paid (the month of the refund, whenever
// the money was taken).
import { sql } from 'kysely'
import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'

export interface MonthRevenue {
  currency: Currency
  revenueMinor: number
  refundedMinor: number
}

/**
 * What plan lines (of orders that took money) were paid, per currency, whose `at` falls in [start, end): the price less
 * the line's stored coupon share, as its invoice and refund have it.
 */
function planLineTotals(db: DB, at: 'o.paid_at' | 'i.refunded_at', start: Date, end: Date) {
  // A plan line in its free trial took nothing: its first charge is the subscription's next invoice, counted there.
  return db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['o.currency', sql<string>`sum(i.unit_price_minor - i.discount_minor)`.as('total')])
    .where('i.kind', '=', 'plan')
    .where('i.free_trial', '=', false)
    .where(at, '>=', start)
    .where(at, '<', end)
    .where('o.captured_minor', '>', 0)
    .groupBy('o.currency')
    .execute()
}

/**
 * When Premium first took money (a plan line of an order that took money, or a paid renewal invoice), or null: the
 * Premium pool's catch-up (flows/premium-pool.ts) starts at its month. A refund always follows its payment.
 */
export async function firstPremiumRevenueAt(db: DB): Promise<Date | null> {
  const [line, renewal] = await Promise.all([
    db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .select((eb) => eb.fn.min<Date | null>('o.paid_at').as('at'))
      .where('i.kind', '=', 'plan')
      .where('i.free_trial', '=', false)
      .where('o.captured_minor', '>', 0)
      .executeTakeFirst(),
    db
      .selectFrom('subscription_invoices')
      .select((eb) => eb.fn.min<Date | null>('paid_at').as('at'))
      .where('amount_minor', '>', 0)
      .where('subscription_id', 'is not', null)
      .executeTakeFirst(),
  ])
  const times = [line?.at, renewal?.at].filter((at): at is Date => at != null).map((at) => new Date(at).getTime())
  return times.length ? new Date(Math.min(...times)) : null
}

export async function premiumRevenueOfMonth(db: DB, start: Date, end: Date): Promise<MonthRevenue[]> {
  const [lines, renewals, refunds, renewalRefunds] = await Promise.all([
    planLineTotals(db, 'o.paid_at', start, end),
    db
      .selectFrom('subscription_invoices')
      .select(['currency', sql<string>`sum(amount_minor - tax_minor)`.as('total')])
      .where('paid_at', '>=', start)
      .where('paid_at', '<', end)
      .where('amount_minor', '>', 0)
      // A membership's renewals: a recurring service's months are not Premium's revenue (decision 0104).
      .where('subscription_id', 'is not', null)
      .where((eb) => eb.or([eb('billing_reason', 'is', null), eb('billing_reason', '!=', 'subscription_create')]))
      .groupBy('currency')
      .execute(),
    planLineTotals(db, 'i.refunded_at', start, end),
    // Refunds of the renewals counted above (charge.refunded of their payment), less the tax they gave back.
    db
      .selectFrom('subscription_invoice_refunds as r')
      .innerJoin('subscription_invoices as si', 'si.id', 'r.subscription_invoice_id')
      .select(['r.currency', sql<string>`sum(r.amount_minor - r.tax_minor)`.as('total')])
      .where('r.refunded_at', '>=', start)
      .where('r.refunded_at', '<', end)
      .where('si.subscription_id', 'is not', null)
      .where((eb) => eb.or([eb('si.billing_reason', 'is', null), eb('si.billing_reason', '!=', 'subscription_create')]))
      .groupBy('r.currency')
      .execute(),
  ])
  const byCurrency = new Map<Currency, MonthRevenue>()
  const entry = (currency: string) => {
    const code = currency.toUpperCase() as Currency
    const found = byCurrency.get(code) ?? { currency: code, revenueMinor: 0, refundedMinor: 0 }
    byCurrency.set(code, found)
    return found
  }
  for (const row of lines) entry(row.currency).revenueMinor += Number(row.total)
  for (const row of renewals) entry(row.currency).revenueMinor += Number(row.total)
  for (const row of refunds) entry(row.currency).refundedMinor += Number(row.total)
  for (const row of renewalRefunds) entry(row.currency).refundedMinor += Number(row.total)
  return [...byCurrency.values()]
    .filter((row) => row.currency === 'USD' || row.currency === 'GBP')
    .sort((a, b) => a.currency.localeCompare(b.currency))
}
