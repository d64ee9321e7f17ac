// The Premium pool: each month, a share (basis points) of Premium's revenue net of refunds, per currency, split
// among the included creator-owned courses by the seconds Premium members watched them, by largest remainder (no
// cent lost), then each course's share among its instructors (premium_pool_share_parts); all stored once, and
// credited as *available* under one ledger key per month, currency and course. A month whose pool nobody earned (no
// minutes watched) credits nobody: it stays with the platform, recorded with distributed 0.
import { allocate, type Currency } from '../../src-shared/money.ts'
import type { DB } from '../kernel/db.ts'
import { post } from './ledger.ts'
import { creditParts, type Recipient, splitAmongCreators } from './shares.ts'

/** The pool of a month: `basisPoints` of revenue less refunds, rounded down to the minor unit; never below 0. */
export function poolOf(revenueMinor: number, refundedMinor: number, basisPoints: number): number {
  const net = revenueMinor - refundedMinor
  if (net <= 0) return 0
  // Integer arithmetic: net × bp fits a double exactly far beyond any month's revenue.
  return Math.floor((net * basisPoints) / 10_000)
}

export interface WatchedCourse {
  courseId: string
  creatorId: string
  title: string
  seconds: number
  /** Who shares the course's pool share (co-instructors, by the owner's percentages); absent: the creator alone. */
  recipients?: readonly Recipient[]
}

export interface PoolShare extends WatchedCourse {
  shareMinor: number
}

/** Splits the pool by seconds watched (largest remainder); with no seconds watched nobody gets anything. */
export function splitPool(poolMinor: number, courses: readonly WatchedCourse[]): PoolShare[] {
  const watched = courses.filter((course) => course.seconds > 0)
  const total = watched.reduce((sum, course) => sum + course.seconds, 0)
  if (total <= 0) return []
  const parts = allocate(
    poolMinor,
    watched.map((course) => course.seconds),
  )
  return watched.map((course, index) => ({ ...course, shareMinor: parts[index] ?? 0 }))
}

export const poolShareKey = (month: string, currency: Currency, courseId: string) =>
  `pool:${month}:${currency}:${courseId}`

export interface PoolMonth {
  month: string
  currency: Currency
  revenueMinor: number
  refundedMinor: number
  basisPoints: number
  courses: readonly WatchedCourse[]
}

export interface PoolOutcome {
  month: string
  currency: Currency
  poolMinor: number
  distributedMinor: number
  shares: PoolShare[]
  /** False when the month was computed before (nothing changed). */
  recorded: boolean
}

const minutes = (seconds: number) => Math.round(seconds / 60)

/**
 * Computes and records one month's pool in one currency, in the caller's transaction: the month row is the claim
 * (a second run, or a second worker waiting on its key, finds it and changes nothing), then each share row and its
 * ledger posting (pool → the creator's available), each under its own key as a second guard.
 */
export async function recordPoolMonth(trx: DB, month: PoolMonth): Promise<PoolOutcome> {
  const poolMinor = poolOf(month.revenueMinor, month.refundedMinor, month.basisPoints)
  const shares = splitPool(poolMinor, month.courses)
  const distributedMinor = shares.reduce((sum, share) => sum + share.shareMinor, 0)
  const watchedSeconds = month.courses.reduce((sum, course) => sum + Math.max(0, course.seconds), 0)
  const claimed = await trx
    .insertInto('premium_pool_months')
    .values({
      month: month.month,
      currency: month.currency,
      revenue_minor: month.revenueMinor,
      refunded_minor: month.refundedMinor,
      basis_points: month.basisPoints,
      pool_minor: poolMinor,
      distributed_minor: distributedMinor,
      watched_seconds: watchedSeconds,
    })
    .onConflict((oc) => oc.columns(['month', 'currency']).doNothing())
    .returning('month')
    .executeTakeFirst()
  const outcome = { month: month.month, currency: month.currency, poolMinor, distributedMinor, shares }
  if (!claimed) return { ...outcome, recorded: false }
  if (shares.length) {
    await trx
      .insertInto('premium_pool_shares')
      .values(
        shares.map((share) => ({
          month: month.month,
          currency: month.currency,
          course_id: share.courseId,
          creator_id: share.creatorId,
          watched_seconds: share.seconds,
          share_minor: share.shareMinor,
        })),
      )
      .execute()
  }
  for (const share of shares) {
    // Split among the course's instructors as a sale is (largest remainder, no cent lost), stored once: the ledger
    // credits these parts and each instructor's Earnings page shows their own.
    const parts = splitAmongCreators(share.shareMinor, share)
    await trx
      .insertInto('premium_pool_share_parts')
      .values(
        parts.map((part) => ({
          month: month.month,
          currency: month.currency,
          course_id: share.courseId,
          creator_id: part.creatorId,
          share_minor: part.creatorMinor,
        })),
      )
      .execute()
    if (share.shareMinor === 0) continue
    await post(trx, {
      key: poolShareKey(month.month, month.currency, share.courseId),
      kind: 'pool_share',
      source: `premium_pool:${month.month}`,
      memo: `Premium pool ${month.month}: ${share.title} (${minutes(share.seconds)} min watched)`,
      entries: [
        { account: 'premium_pool', currency: month.currency, amountMinor: -share.shareMinor },
        ...creditParts(parts, 'creator_available', month.currency),
      ],
    })
  }
  return { ...outcome, recorded: true }
}

/** Whether the month's pool was computed in any currency. */
export async function poolMonthComputed(db: DB, month: string): Promise<boolean> {
  const row = await db.selectFrom('premium_pool_months').select('month').where('month', '=', month).executeTakeFirst()
  return row !== undefined
}

/** The currencies each month from `from` (`YYYY-MM`) on was recorded in: the months a pool run has settled. */
export async function recordedPoolMonths(db: DB, from: string): Promise<Map<string, Set<string>>> {
  const rows = await db
    .selectFrom('premium_pool_months')
    .select(['month', 'currency'])
    .where('month', '>=', from)
    .execute()
  const recorded = new Map<string, Set<string>>()
  for (const row of rows) recorded.set(row.month, (recorded.get(row.month) ?? new Set()).add(row.currency))
  return recorded
}

/**
 * A creator's own parts of the pool per course and month (newest first, at most `limit` rows): an owner's and each
 * co-instructor's, as their ledgers were credited, with the course's minutes watched.
 */
export async function creatorPoolShares(db: DB, creatorId: string, limit = 120) {
  const rows = await db
    .selectFrom('premium_pool_share_parts as p')
    .innerJoin('premium_pool_shares as s', (join) =>
      join
        .onRef('s.month', '=', 'p.month')
        .onRef('s.currency', '=', 'p.currency')
        .onRef('s.course_id', '=', 'p.course_id'),
    )
    .select(['p.month', 'p.currency', 'p.course_id', 's.watched_seconds', 'p.share_minor'])
    .where('p.creator_id', '=', creatorId)
    .orderBy('p.month', 'desc')
    .orderBy('p.course_id')
    .orderBy('p.currency')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    month: row.month,
    currency: row.currency,
    courseId: row.course_id,
    watchedSeconds: Number(row.watched_seconds),
    shareMinor: row.share_minor,
  }))
}

/** Staff and tests: one month's pool rows per currency. */
export async function poolMonths(db: DB, month: string) {
  const rows = await db
    .selectFrom('premium_pool_months')
    .select(['currency', 'revenue_minor', 'refunded_minor', 'basis_points', 'pool_minor', 'distributed_minor'])
    .where('month', '=', month)
    .orderBy('currency')
    .execute()
  return rows.map((row) => ({
    currency: row.currency,
    revenueMinor: Number(row.revenue_minor),
    refundedMinor: Number(row.refunded_minor),
    basisPoints: row.basis_points,
    poolMinor: Number(row.pool_minor),
    distributedMinor: Number(row.distributed_minor),
  }))
}
