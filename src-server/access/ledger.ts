// The access ledger: every right a user holds is one row of access_grants naming its source, and access/ is its
// only writer. Other owners call these functions inside their own transaction (pass the trx), so a payment, a
// refund or a dispute changes money and rights in one commit.
//
//   grant(trx, { userId, right, source, startsAt?, endsAt? })   idempotent per right + source
//   grantAll(trx, inputs)                                        several at once (one payment's lines)
//   revoke(trx, by, reason, at?)                                 by: { grantId } | { orderItemIds } | { orderId }
//                                                                    | { subscriptionId }; only live rows change
//   restore(trx, by, { reason? })                                undoes revocations (e.g. reason 'dispute' when a
//                                                                    dispute is won); other reasons stay revoked
//   setGrantEnd(trx, subscriptionId, endsAt)                     moves the end of a subscription's Premium
//   liveGrants(db, userId, now?)                                 what the user holds right now
//
// A grant is live when it is not revoked, has started and has not ended (ends_at null means no end).

import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Database, GrantKind, RevokeReason } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { courseHoldersChanged } from './holder-effects.ts'

export type { RevokeReason }

/** What the grant gives. */
export type Right =
  | { kind: 'course'; courseId: string }
  | { kind: 'premium' }
  | { kind: 'service'; servicePackageId: string }

/** Where it comes from; the same right from the same source is granted once. */
export type GrantSource =
  | { kind: 'order_item'; orderId: string; orderItemId: string }
  | { kind: 'subscription'; subscriptionId: string }
  /** One staff grant per user and right; `staffId` records who gave it. */
  | { kind: 'staff'; staffId?: string | null }
  /** A free course taken without an order: one per user and course. */
  | { kind: 'free_enrolment' }

export interface GrantInput {
  userId: string
  right: Right
  source: GrantSource
  startsAt?: Date
  /** Omitted: no end. */
  endsAt?: Date | null
}

/** Which grants a revoke or restore applies to. */
export type GrantSelector =
  | { grantId: string }
  | { orderItemIds: readonly string[] }
  | { orderId: string }
  | { subscriptionId: string }

/**
 * Records a right. Idempotent: when the same right from the same source exists (live or revoked) nothing changes
 * and `created` is false; a revoked grant stays revoked (a replayed payment must not undo a refund): restore it.
 */
export async function grant(trx: DB, input: GrantInput): Promise<{ id: string; created: boolean }> {
  return (await grantAll(trx, [input]))[0] as { id: string; created: boolean }
}

/**
 * Records several rights in one transaction (as `grant`, each idempotent), then follows all their course holders at
 * once: the courses are locked together in id order, so two payments naming the same courses in another order take
 * turns instead of deadlocking (each grant locking its own course would lock them in the lines' order).
 */
export async function grantAll(trx: DB, inputs: readonly GrantInput[]): Promise<{ id: string; created: boolean }[]> {
  const results: { id: string; created: boolean }[] = []
  const newHolders: { user_id: string; course_id: string }[] = []
  for (const input of inputs) {
    const result = await insertGrant(trx, input)
    results.push(result)
    if (result.created && input.right.kind === 'course') {
      newHolders.push({ user_id: input.userId, course_id: input.right.courseId })
    }
  }
  // students_count and the learner's review follow (holder-effects.ts), in this transaction.
  await courseHoldersChanged(trx, newHolders)
  return results
}

async function insertGrant(trx: DB, input: GrantInput): Promise<{ id: string; created: boolean }> {
  const { right, source } = input
  const inserted = await trx
    .insertInto('access_grants')
    .values({
      user_id: input.userId,
      kind: right.kind,
      course_id: right.kind === 'course' ? right.courseId : null,
      service_package_id: right.kind === 'service' ? right.servicePackageId : null,
      source: source.kind,
      order_id: source.kind === 'order_item' ? source.orderId : null,
      order_item_id: source.kind === 'order_item' ? source.orderItemId : null,
      subscription_id: source.kind === 'subscription' ? source.subscriptionId : null,
      granted_by: source.kind === 'staff' ? (source.staffId ?? null) : null,
      // The app's clock, not the database's now(): reads compare starts_at with the app's `now` (millisecond
      // precision), so a database default (microseconds, another node's clock) could start a grant just after it.
      starts_at: input.startsAt ?? clock.now(),
      ends_at: input.endsAt ?? null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'grant_key']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) return { id: inserted.id, created: true }
  const existing = await trx
    .selectFrom('access_grants')
    .select('id')
    .where('user_id', '=', input.userId)
    .where('grant_key', '=', grantKey(right, source))
    .executeTakeFirstOrThrow()
  return { id: existing.id, created: false }
}

/** Revokes the selected grants that are not revoked yet; returns how many changed (0 on a repeat). */
export async function revoke(trx: DB, by: GrantSelector, reason: RevokeReason, at = clock.now()): Promise<number> {
  const result = await trx
    .updateTable('access_grants')
    .set({ revoked_at: at, revoked_reason: reason, updated_at: clock.now() })
    .where((eb) => selected(eb, by))
    .where('revoked_at', 'is', null)
    .returning(['user_id', 'course_id'])
    .execute()
  await courseHoldersChanged(trx, result)
  return result.length
}

/**
 * Gives back the selected grants that were revoked (only those revoked for `reason` when given: a won dispute
 * restores what the dispute took, not what a refund took). Returns how many changed (0 on a repeat).
 */
export async function restore(trx: DB, by: GrantSelector, options: { reason?: RevokeReason } = {}): Promise<number> {
  let query = trx
    .updateTable('access_grants')
    .set({ revoked_at: null, revoked_reason: null, restored_at: clock.now(), updated_at: clock.now() })
    .where((eb) => selected(eb, by))
    .where('revoked_at', 'is not', null)
  if (options.reason) query = query.where('revoked_reason', '=', options.reason)
  const result = await query.returning(['user_id', 'course_id']).execute()
  await courseHoldersChanged(trx, result)
  return result.length
}

/** Moves the end of the Premium a subscription gives (its paid period plus grace); null means no end. */
export async function setGrantEnd(trx: DB, subscriptionId: string, endsAt: Date | null): Promise<void> {
  await trx
    .updateTable('access_grants')
    .set({ ends_at: endsAt, updated_at: clock.now() })
    .where('subscription_id', '=', subscriptionId)
    .where('kind', '=', 'premium')
    .execute()
}

export interface LiveGrant {
  id: string
  kind: GrantKind
  courseId: string | null
  servicePackageId: string | null
  source: GrantSource['kind']
  orderId: string | null
  orderItemId: string | null
  subscriptionId: string | null
  startsAt: Date
  endsAt: Date | null
}

/** The user's grants in force at `now`, oldest first. */
export async function liveGrants(db: DB, userId: string, now = clock.now()): Promise<LiveGrant[]> {
  const rows = await db
    .selectFrom('access_grants')
    .select([
      'id',
      'kind',
      'course_id',
      'service_package_id',
      'source',
      'order_id',
      'order_item_id',
      'subscription_id',
      'starts_at',
      'ends_at',
    ])
    .where('user_id', '=', userId)
    .where(isLive(now))
    .orderBy('starts_at')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    courseId: row.course_id,
    servicePackageId: row.service_package_id,
    source: row.source,
    orderId: row.order_id,
    orderItemId: row.order_item_id,
    subscriptionId: row.subscription_id,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
  }))
}

type GrantsBuilder = ExpressionBuilder<Database, 'access_grants'>

/** The one definition of "in force", shared by every read of access/: `.where(isLive(now))`. */
export function isLive(now: Date): RawBuilder<SqlBool> {
  const column = (name: string) => sql.ref(`access_grants.${name}`)
  return sql<SqlBool>`(${column('revoked_at')} is null and ${column('starts_at')} <= ${now}
    and (${column('ends_at')} is null or ${column('ends_at')} > ${now}))`
}

function selected(eb: GrantsBuilder, by: GrantSelector): Expression<SqlBool> {
  if ('grantId' in by) return eb('id', '=', by.grantId)
  if ('orderItemIds' in by) {
    return by.orderItemIds.length ? eb('order_item_id', 'in', [...by.orderItemIds]) : eb.lit(false)
  }
  if ('orderId' in by) return eb('order_id', '=', by.orderId)
  return eb('subscription_id', '=', by.subscriptionId)
}

/** The same key the database generates (migration 2026_11_24_1000), to find an existing grant. */
function grantKey(right: Right, source: GrantSource): string {
  const rightKey =
    right.kind === 'course'
      ? `course:${right.courseId}`
      : right.kind === 'service'
        ? `service:${right.servicePackageId}`
        : 'premium'
  const sourceKey =
    source.kind === 'order_item'
      ? `order_item:${source.orderItemId}`
      : source.kind === 'subscription'
        ? `subscription:${source.subscriptionId}`
        : source.kind
  return `${rightKey}@${sourceKey}`
}
