// What a creator sees of their money (the studio's Earnings and Payouts pages, and monthly statements): balances per
// currency, the next payout date, the payout account's state, the platform fee of their plan, their ledger entries
// with the fact behind each, the last 12 months for the chart, and one month's statement. Only their own entries.

import { platformFeeBasisPoints } from '../../src-shared/creator-plans.ts'
import type { Currency } from '../../src-shared/money.ts'
import { fullName } from '../../src-shared/names.ts'
import { creatorBalances, zeroBalance } from '../earnings/balances.ts'
import { payoutAccountOf } from '../earnings/payout-accounts.ts'
import { payoutsPaused } from '../earnings/payouts.ts'
import {
  type CreatorEntry,
  creatorEntries,
  creatorEntriesOfMonth,
  creatorMonthlyTotals,
  creatorStatementMonths,
} from '../earnings/statements.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { currentSubscription } from '../subscriptions/premium.ts'
import { existingUserContact } from '../users/contact.ts'

/** Payouts run on the 1st of each month at 06:00 UTC (jobs/registry.ts 'earnings.payouts'). */
export function nextPayoutDate(now: Date): Date {
  const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 6))
  if (now < thisMonth) return thisMonth
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 6))
}

export type PayoutAccountStatus =
  | { state: 'not_set_up' }
  | { state: 'needs_info'; requirementsDue: string[]; deadline: Date | null; disabledReason: string | null }
  | { state: 'ready' }

export async function payoutAccountStatus(db: DB, creatorId: string) {
  const account = await payoutAccountOf(db, creatorId)
  const status: PayoutAccountStatus = !account
    ? { state: 'not_set_up' }
    : account.payouts_enabled
      ? { state: 'ready' }
      : {
          state: 'needs_info',
          requirementsDue: Array.isArray(account.requirements_due) ? (account.requirements_due as string[]) : [],
          deadline: account.requirements_deadline,
          disabledReason: account.disabled_reason,
        }
  return { ...status, detailsSubmitted: account?.details_submitted ?? false }
}

export async function earningsOverview(db: DB, creatorId: string, now = clock.now()) {
  const [balances, account, subscription, paused] = await Promise.all([
    creatorBalances(db, creatorId),
    payoutAccountStatus(db, creatorId),
    currentSubscription(db, creatorId, now),
    payoutsPaused(db),
  ])
  const planId = subscription?.held_plan_id ?? null
  return {
    balances: balances.map((balance) => ({
      ...balance,
      // A negative available balance (a refund after a payout) is owed back from later earnings.
      owedMinor: balance.availableMinor < 0 ? -balance.availableMinor : 0,
    })),
    nextPayoutAt: nextPayoutDate(now),
    payoutAccount: account,
    payoutsPaused: paused,
    planId,
    planName: subscription?.name ?? null,
    feeBasisPoints: platformFeeBasisPoints(planId),
  }
}

export async function earningsEntries(db: DB, creatorId: string, page: number, pageSize: number) {
  const { entries, total } = await creatorEntries(db, creatorId, page, pageSize)
  return { entries, total, page, pageSize }
}

export async function earningsMonthly(db: DB, creatorId: string, now = clock.now()) {
  const [totals, statementMonths] = await Promise.all([
    creatorMonthlyTotals(db, creatorId, now, 12),
    creatorStatementMonths(db, creatorId),
  ])
  return { ...totals, statementMonths }
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

export interface Statement {
  month: string
  entries: CreatorEntry[]
  /** Per currency: what the month moved on each account. */
  totals: { currency: Currency; pendingMinor: number; availableMinor: number; paidOutMinor: number }[]
}

/** One month of the creator's own entries (`YYYY-MM`); a malformed month is not found. */
export async function creatorStatement(db: DB, creatorId: string, month: string): Promise<Statement> {
  if (!MONTH.test(month)) throw new DomainError('not_found', 'No statement for that month')
  const entries = await creatorEntriesOfMonth(db, creatorId, month)
  const totals = new Map<Currency, Statement['totals'][number]>()
  for (const entry of entries) {
    const total = totals.get(entry.currency) ?? zeroBalance(entry.currency)
    total.pendingMinor += entry.pendingMinor
    total.availableMinor += entry.availableMinor
    total.paidOutMinor += entry.paidOutMinor
    totals.set(entry.currency, total)
  }
  return { month, entries, totals: [...totals.values()] }
}

/** Whom a statement is of (its PDF's heading): the ledger's owner, also when a school's finance member downloads it. */
export async function statementHolder(db: DB, creatorId: string) {
  const user = await existingUserContact(db, creatorId)
  return { name: fullName(user.first_name, user.last_name) || user.email, email: user.email }
}

const csvCell = (value: string | number) => {
  const text = String(value)
  // Quote always; a leading formula character (not a plain amount) is neutralised so a spreadsheet never runs it.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text
  return `"${safe.replace(/"/g, '""')}"`
}

export const toCsv = (rows: (string | number)[][]) =>
  `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`

const decimal = (minor: number) => (minor / 100).toFixed(2)

/** The statement as CSV: one line per entry (date, description, currency, amount per account). */
export function statementCsv(statement: Statement): string {
  return toCsv([
    ['Date', 'Description', 'Currency', 'Pending', 'Available', 'Paid out'],
    ...statement.entries.map((entry) => [
      entry.at.toISOString(),
      entry.description,
      entry.currency,
      decimal(entry.pendingMinor),
      decimal(entry.availableMinor),
      decimal(entry.paidOutMinor),
    ]),
  ])
}
