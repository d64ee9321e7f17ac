// What the ledger says a creator holds, per currency: pending (inside the refund window), available (may be
// negative after a refund of money already paid out), and paid out so far.
import type { Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'

export interface CreatorBalance {
  currency: Currency
  pendingMinor: number
  availableMinor: number
  paidOutMinor: number
}

/** A currency's balance before any entry: nothing pending, available or paid out. */
export function zeroBalance(currency: Currency): CreatorBalance {
  return { currency, pendingMinor: 0, availableMinor: 0, paidOutMinor: 0 }
}

export async function creatorBalances(db: DB, creatorId: string): Promise<CreatorBalance[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['currency', 'account', (eb) => eb.fn.sum<string | number>('amount_minor').as('total')])
    .where('creator_id', '=', creatorId)
    .groupBy(['currency', 'account'])
    .execute()
  const byCurrency = new Map<Currency, CreatorBalance>()
  for (const row of rows) {
    const balance = byCurrency.get(row.currency) ?? zeroBalance(row.currency)
    const total = Number(row.total)
    if (row.account === 'creator_pending') balance.pendingMinor = total
    else if (row.account === 'creator_available') balance.availableMinor = total
    else if (row.account === 'creator_paid_out') balance.paidOutMinor = total
    byCurrency.set(row.currency, balance)
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency))
}

/** The sum of every entry per currency: zero in a sound ledger. */
export async function ledgerTotals(db: DB): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['currency', (eb) => eb.fn.sum<string | number>('amount_minor').as('total')])
    .groupBy('currency')
    .execute()
  return new Map(rows.map((row) => [row.currency, Number(row.total)]))
}

/**
 * What creators have earned, per currency: every creator's pending, available and paid-out entries together (their
 * shares of sales and of the Premium pool, less refunds, fees and chargebacks). The home page's creator earnings.
 */
export async function creatorEarningsTotals(db: DB): Promise<{ currency: Currency; amountMinor: number }[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['currency', (eb) => eb.fn.sum<string | number>('amount_minor').as('total')])
    .where('account', 'in', ['creator_pending', 'creator_available', 'creator_paid_out'])
    .groupBy('currency')
    .orderBy('currency')
    .execute()
  return rows.map((row) => ({ currency: row.currency, amountMinor: Number(row.total) }))
}
