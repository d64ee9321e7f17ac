// What a creator reads of their own ledger: each posting with the fact behind it (a sale of a course with its order
// reference, a refund, a hold release, a payout…) and its amounts per account, newest first; per-month sums for the
// studio's chart; and every entry of one month for a statement. Every query is scoped to one creator's entries.

import { sql } from 'kysely'
import type { LedgerKind } from '../../db/types.ts'
import type { Currency } from '../../src-shared/money.ts'
import { fullName } from '../../src-shared/names.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'

export interface CreatorEntry {
  transactionId: string
  kind: LedgerKind
  /** What happened, in words: "Sale of Rust basics (order SF-1042)", "Payout 2026-11"… */
  description: string
  at: Date
  currency: Currency
  /** What this posting moved on each of the creator's accounts (signed). */
  pendingMinor: number
  availableMinor: number
  paidOutMinor: number
}

interface EntryRow {
  id: string | number
  kind: LedgerKind
  memo: string
  source: string
  created_at: Date | string
  currency: Currency
  pending: string | number
  available: string | number
  paid_out: string | number
  course_title: string | null
  order_reference: string | null
}

/**
 * The kinds whose key names an order line (`sale:<line>`, `reversal:<line>`, `release:<line>`, `processor_fee:<line>`,
 * `chargeback_fee:<line>:<dispute>`, `dispute_hold:<line>:<dispute>`, `dispute_hold_end:<line>:<dispute>`).
 */
const LINE_KINDS = [
  'sale',
  'refund',
  'dispute',
  'hold_release',
  'processor_fee',
  'dispute_hold',
  'dispute_hold_end',
] as const

/** The sum of the selected ledger entries (`e`) on one of a creator's accounts. */
const accountSum = (account: 'creator_pending' | 'creator_available' | 'creator_paid_out') =>
  sql<string>`sum(case when e.account = ${sql.lit(account)} then e.amount_minor else 0 end)`
const PENDING = accountSum('creator_pending').as('pending')
const AVAILABLE = accountSum('creator_available').as('available')
const PAID_OUT = accountSum('creator_paid_out').as('paid_out')

function entriesQuery(db: DB, creatorId: string) {
  return db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .leftJoin('earning_shares as s', (join) =>
      join.on('t.kind', 'in', [...LINE_KINDS]).on(sql<boolean>`s.order_item_id::text = split_part(t.key, ':', 2)`),
    )
    .leftJoin('courses as c', 'c.id', 's.course_id')
    .leftJoin('orders as o', 'o.id', 's.order_id')
    .where('e.creator_id', '=', creatorId)
    .select([
      't.id',
      't.kind',
      't.memo',
      't.source',
      't.created_at',
      'e.currency',
      PENDING,
      AVAILABLE,
      PAID_OUT,
      'c.title as course_title',
      'o.reference as order_reference',
    ])
    .groupBy(['t.id', 't.kind', 't.memo', 't.source', 't.created_at', 'e.currency', 'c.title', 'o.reference'])
}

function describe(row: EntryRow): string {
  const course = row.course_title ?? 'a course'
  const order = row.order_reference ? ` (order ${row.order_reference})` : ''
  switch (row.kind) {
    case 'sale':
      return `Sale of ${course}${order}`
    case 'refund':
      return `Refund of ${course}${order}`
    case 'dispute':
      return `Dispute lost on ${course}${order}`
    case 'hold_release':
      return `Refund window ended: ${course}${order}`
    case 'dispute_hold':
      return `On hold, payment disputed by the buyer's bank: ${course}${order}`
    case 'dispute_hold_end':
      return `Hold ended, dispute closed: ${course}${order}`
    case 'payout':
      return row.memo || 'Payout'
    case 'transfer_reversal':
      return `Payout reversed by Stripe (${row.source.replace(/^transfer:/, '')})`
    case 'pool_share':
      return row.memo || 'Premium pool share'
    case 'processor_fee':
      return `${row.memo || 'Payment processor fee'}: ${course}${order}`
    default:
      return row.memo || 'Adjustment'
  }
}

function toEntry(row: EntryRow): CreatorEntry {
  return {
    transactionId: String(row.id),
    kind: row.kind,
    description: describe(row),
    at: new Date(row.created_at),
    currency: row.currency,
    pendingMinor: Number(row.pending),
    availableMinor: Number(row.available),
    paidOutMinor: Number(row.paid_out),
  }
}

/** A page of the creator's postings, newest first. */
export async function creatorEntries(
  db: DB,
  creatorId: string,
  page: number,
  pageSize: number,
): Promise<{ entries: CreatorEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    entriesQuery(db, creatorId)
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('ledger_entries')
      .select(sql<string>`count(distinct (transaction_id, currency))`.as('n'))
      .where('creator_id', '=', creatorId)
      .executeTakeFirstOrThrow(),
  ])
  return { entries: (rows as EntryRow[]).map(toEntry), total: Number(count.n) }
}

/** Every posting of the creator in a month (`YYYY-MM`, UTC), oldest first: a statement's lines. */
export async function creatorEntriesOfMonth(db: DB, creatorId: string, month: string): Promise<CreatorEntry[]> {
  const { start, end } = monthBounds(month)
  const rows = await entriesQuery(db, creatorId)
    .where('t.created_at', '>=', start)
    .where('t.created_at', '<', end)
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute()
  return (rows as EntryRow[]).map(toEntry)
}

export function monthBounds(month: string): { start: Date; end: Date } {
  const [year, mon] = month.split('-').map(Number) as [number, number]
  return { start: new Date(Date.UTC(year, mon - 1, 1)), end: new Date(Date.UTC(year, mon, 1)) }
}

/** `YYYY-MM` of a date in UTC. */
export const monthOf = (at: Date) => `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`

/** The `count` months up to and including the one of `now`, oldest first. */
export function lastMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - index), 1))),
  )
}

export interface MonthTotals {
  month: string
  /** The creator's shares of sales and of the Premium pool that month. */
  earnedMinor: number
  /** Shares taken back by refunds and lost disputes that month (positive). */
  refundedMinor: number
  /** The payment processor's fees and chargeback fees taken from the creator's shares that month (positive). */
  feesMinor: number
  /** What the month left the creator: earned less refunded less fees (the balances' change before payouts). */
  netMinor: number
  paidOutMinor: number
}

/** Per currency, the creator's sums of each of the last `count` months (months with nothing are zeros). */
export async function creatorMonthlyTotals(
  db: DB,
  creatorId: string,
  now: Date,
  count = 12,
): Promise<{ months: string[]; series: { currency: Currency; months: MonthTotals[] }[] }> {
  const months = lastMonths(now, count)
  const start = monthBounds(months[0]!).start
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .where('e.creator_id', '=', creatorId)
    .where('t.created_at', '>=', start)
    .select([
      'e.currency',
      sql<string>`to_char(t.created_at at time zone 'UTC', 'YYYY-MM')`.as('month'),
      sql<string>`sum(case when t.kind in ('sale','pool_share') then e.amount_minor else 0 end)`.as('earned'),
      sql<string>`sum(case when t.kind in ('refund','dispute') then -e.amount_minor else 0 end)`.as('refunded'),
      sql<string>`sum(case when t.kind = 'processor_fee' then -e.amount_minor else 0 end)`.as('fees'),
      sql<string>`sum(case when t.kind = 'payout' and e.account = 'creator_paid_out' then e.amount_minor
        when t.kind = 'transfer_reversal' and e.account = 'creator_paid_out' then e.amount_minor else 0 end)`.as(
        'paid_out',
      ),
    ])
    .groupBy(['e.currency', sql`to_char(t.created_at at time zone 'UTC', 'YYYY-MM')`])
    .execute()
  const currencies = [...new Set(rows.map((row) => row.currency))].sort()
  return {
    months,
    series: currencies.map((currency) => ({
      currency,
      months: months.map((month) => {
        const row = rows.find((r) => r.currency === currency && r.month === month)
        const earnedMinor = Number(row?.earned ?? 0)
        const refundedMinor = Number(row?.refunded ?? 0)
        const feesMinor = Number(row?.fees ?? 0)
        return {
          month,
          earnedMinor,
          refundedMinor,
          feesMinor,
          netMinor: earnedMinor - refundedMinor - feesMinor,
          paidOutMinor: Number(row?.paid_out ?? 0),
        }
      }),
    })),
  }
}

/** The months (`YYYY-MM`) in which the creator has any posting, newest first: the statements they can download. */
export async function creatorStatementMonths(db: DB, creatorId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .where('e.creator_id', '=', creatorId)
    .select(sql<string>`to_char(t.created_at at time zone 'UTC', 'YYYY-MM')`.as('month'))
    .distinct()
    .execute()
  return rows.map((row) => row.month).sort((a, b) => b.localeCompare(a))
}

/**
 * Staff: what is owed to creators per currency. Each creator's balance (pending + available) counts only where it is
 * positive: a creator whose available went negative (a refund after a payout) owes the platform, which later earnings
 * repay; it never lowers what is owed to the others (it is listed under Negative balances). `availableMinor` sums the
 * positive available balances (what payouts could send now), `pendingMinor` every pending one.
 */
export async function owedToCreators(db: DB) {
  const perCreator = db
    .selectFrom('ledger_entries as e')
    .where('e.account', 'in', ['creator_pending', 'creator_available'])
    .select(['e.creator_id', 'e.currency', PENDING, AVAILABLE])
    .groupBy(['e.creator_id', 'e.currency'])
    .as('b')
  const totals = await db
    .selectFrom(perCreator)
    .select([
      'b.currency',
      sql<string>`sum(b.pending)`.as('pending'),
      sql<string>`sum(greatest(b.available, 0))`.as('available'),
      sql<string>`sum(greatest(b.pending + b.available, 0))`.as('owed'),
    ])
    .groupBy('b.currency')
    .orderBy('b.currency')
    .execute()
  return totals.map((row) => ({
    currency: row.currency,
    pendingMinor: Number(row.pending),
    availableMinor: Number(row.available),
    owedMinor: Number(row.owed),
  }))
}

/** Every creator's balances per currency with their name (staff's finance view and its CSV). */
export async function allCreatorBalances(db: DB) {
  const rows = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('users as u', 'u.id', 'e.creator_id')
    .where('e.creator_id', 'is not', null)
    .select(['e.creator_id', 'u.email', 'u.first_name', 'u.last_name', 'e.currency', PENDING, AVAILABLE, PAID_OUT])
    .groupBy(['e.creator_id', 'u.email', 'u.first_name', 'u.last_name', 'e.currency'])
    .orderBy('u.email')
    .orderBy('e.currency')
    .execute()
  return rows.map((row) => ({
    creatorId: row.creator_id as string,
    email: row.email,
    name: fullName(row.first_name, row.last_name) || row.email,
    currency: row.currency,
    pendingMinor: Number(row.pending),
    availableMinor: Number(row.available),
    paidOutMinor: Number(row.paid_out),
  }))
}

/** Staff: payouts, newest first (failed and unconfirmed ones first), with the creator's name. */
export async function listPayouts(db: DB, limit = 100) {
  const rows = await db
    .selectFrom('creator_payouts as p')
    .innerJoin('users as u', 'u.id', 'p.creator_id')
    .select([
      'p.id',
      'p.creator_id as creatorId',
      'u.email',
      'u.first_name',
      'u.last_name',
      'p.month',
      'p.currency',
      'p.amount_minor as amountMinor',
      'p.status',
      'p.attempts',
      'p.last_error as lastError',
      'p.stripe_transfer_id as transferId',
      'p.created_at as createdAt',
      'p.paid_at as paidAt',
    ])
    .orderBy(sql`case when p.status in ('failed', 'unconfirmed') then 0 else 1 end`)
    .orderBy('p.created_at', 'desc')
    .limit(limit)
    .execute()
  return rows.map(({ first_name, last_name, ...payout }) => ({
    ...payout,
    creator: fullName(first_name, last_name) || payout.email,
  }))
}

/** The owner pauses or resumes payouts; returns the state before. */
export async function setPayoutsPaused(db: DB, paused: boolean, actorId: string): Promise<boolean> {
  const before = await db
    .selectFrom('payout_settings')
    .select('paused')
    .where('id', '=', 1)
    .forUpdate()
    .executeTakeFirst()
  await db
    .insertInto('payout_settings')
    .values({ id: 1, paused, paused_by: actorId, updated_at: clock.now() })
    .onConflict((oc) => oc.column('id').doUpdateSet({ paused, paused_by: actorId, updated_at: clock.now() }))
    .execute()
  return before?.paused ?? false
}
