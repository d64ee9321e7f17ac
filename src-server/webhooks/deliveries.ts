// Webhook deliveries (decision 0061): the only writer of webhook_deliveries. An event becomes one row per subscribed
// endpoint in the transaction of the change it reports (an outbox: the row exists if and only if the change
// commits); the relay puts due rows on the job queue (and takes again those whose job is gone without settling them);
// each attempt's outcome schedules the next with exponential back-off until 3 days have passed.
import { randomBytes } from 'node:crypto'
import type { ExpressionBuilder, Transaction } from 'kysely'
import { sql } from 'kysely'
import type { Database } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueRows, type JobGone } from '../kernel/relay.ts'

/** How long a delivery is retried, and how long an endpoint may fail before it is disabled. */
export const RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000
const FIRST_RETRY_SECONDS = 15
const MAX_RETRY_SECONDS = 12 * 60 * 60

/** The wait after the n-th failed attempt (1-based): 15 s, 1 min, 4 min, 16 min, ~1 h, ~4 h, then 12 h. */
export function retryDelaySeconds(failedAttempts: number): number {
  return Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 4 ** Math.max(0, failedAttempts - 1))
}

export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`
}

export interface WebhookEvent {
  id: string
  type: string
  /** The business time of the event. */
  timestamp: Date
  data: Record<string, unknown>
}

/** The body every endpoint receives: the Standard Webhooks shape { type, timestamp, data }. */
export function eventPayload(event: WebhookEvent) {
  return { type: event.type, timestamp: event.timestamp.toISOString(), data: event.data }
}

/** One delivery per enabled endpoint of the school subscribed to the event's type; the number written. */
export async function recordEvent(
  db: DB,
  schoolId: string,
  event: WebhookEvent,
  /** Asked only when an endpoint would get the event (the plan check costs reads a school without endpoints skips). */
  mayDeliver: () => Promise<boolean> = async () => true,
): Promise<number> {
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('school_id', '=', schoolId)
    .where('enabled', '=', true)
    .where(sql<boolean>`${event.type} = any(event_types)`)
    .execute()
  if (endpoints.length === 0 || !(await mayDeliver())) return 0
  const payload = JSON.stringify(eventPayload(event))
  await db
    .insertInto('webhook_deliveries')
    .values(
      endpoints.map((endpoint) => ({
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        payload,
        next_attempt_at: event.timestamp,
        created_at: event.timestamp,
      })),
    )
    .execute()
  return endpoints.length
}

/** A delivery to one endpoint (a test event), due now; its id. */
export async function recordDelivery(db: DB, endpointId: string, event: WebhookEvent, replayOf?: string) {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: endpointId,
      event_id: event.id,
      event_type: event.type,
      payload: JSON.stringify(eventPayload(event)),
      next_attempt_at: clock.now(),
      created_at: clock.now(),
      replay_of: replayOf ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Sends the same message again (same id, type and body) as a new delivery, due now. */
export async function replayDelivery(db: DB, deliveryId: string) {
  const original = await db
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', 'event_id', 'event_type', 'payload'])
    .where('id', '=', deliveryId)
    .executeTakeFirstOrThrow()
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: original.endpoint_id,
      event_id: original.event_id,
      event_type: original.event_type,
      payload: JSON.stringify(original.payload),
      next_attempt_at: clock.now(),
      created_at: clock.now(),
      replay_of: deliveryId,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function deliveryById(db: DB, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'endpoint_id',
      'event_id',
      'event_type',
      'payload',
      'attempts',
      'next_attempt_at',
      'last_status_code',
      'last_error',
      'delivered_at',
      'failed_at',
      'created_at',
    ])
    .where('id', '=', deliveryId)
    .executeTakeFirst()
}

/** The endpoint's latest deliveries, newest first. */
export async function listDeliveries(db: DB, endpointId: string, limit = 50) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'event_id',
      'event_type',
      'attempts',
      'next_attempt_at',
      'last_status_code',
      'last_error',
      'last_attempt_at',
      'delivered_at',
      'failed_at',
      'replay_of',
      'created_at',
    ])
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

export type EnqueueWebhookDelivery = (deliveryId: string, trx: Transaction<Database>) => Promise<string>

const BATCH = 50

export interface RelayOptions {
  now?: Date
  /**
   * Also takes due rows whose job is gone without settling them (jobs/queue.ts jobGone): a handler that threw before
   * recording anything (the database failing over), a worker that died or hung past the job's expiry. Without it
   * (tests with no queue) a row once on the queue is never taken again.
   */
  jobGone?: JobGone
}

/**
 * Puts the due deliveries of enabled endpoints on the queue: one short transaction takes them (SKIP LOCKED, so
 * several workers never take the same row), enqueues a job per row and stores its id, committed together. A row
 * whose job is gone is taken like a new one once due: an attempt that began set its next time to the back-off
 * before its POST (claimAttempt), so a row is never taken again while a POST of it may still be under way.
 */
export async function relayDueDeliveries(db: DB, enqueue: EnqueueWebhookDelivery, options: RelayOptions = {}) {
  const { now = clock.now(), jobGone } = options
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('delivered_at', 'is', null)
      .where('failed_at', 'is', null)
      .where((eb) =>
        jobGone ? eb.or([eb('job_id', 'is', null), jobGone(eb.ref('job_id'))]) : eb('job_id', 'is', null),
      )
      .where('next_attempt_at', '<=', now)
      .where('endpoint_id', 'in', (eb) => eb.selectFrom('webhook_endpoints').select('id').where('enabled', '=', true))
      .orderBy('next_attempt_at')
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .execute()
    return enqueueRows(trx, 'webhook_deliveries', rows, enqueue)
  })
}

/**
 * The row is the job's while its job_id names the job; a direct call (tests) names none and acts on a row no job
 * holds. A job whose row was taken again by the relay (it was gone: expired, its worker stuck) changes nothing.
 */
function heldBy(jobId: string | null) {
  return (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
    eb.and([
      jobId === null ? eb('job_id', 'is', null) : eb('job_id', '=', jobId),
      eb('delivered_at', 'is', null),
      eb('failed_at', 'is', null),
    ])
}

/**
 * When the try after `failedTries` failures falls: the back-off from now, the last at the end of the 3 days from the
 * delivery's creation (so an endpoint failing throughout is disabled by it); null once those 3 days have passed.
 */
function nextTryAfter(createdAt: Date, failedTries: number, now: Date): Date | null {
  const deadline = createdAt.getTime() + RETRY_WINDOW_MS
  if (now.getTime() >= deadline) return null
  return new Date(Math.min(now.getTime() + retryDelaySeconds(failedTries) * 1000, deadline))
}

/**
 * Takes the delivery for one attempt, just before its POST, while `jobId` still holds it: counts the attempt and sets
 * the next one's time as if this one failed, so an attempt that never reports (its worker died mid-POST) is
 * followed after the back-off, and the relay cannot hand the row to another job while this POST (limited to seconds,
 * webhooks/send.ts) may be under way. The attempt's number, or null when the row is no longer this job's to send.
 */
export async function claimAttempt(
  db: DB,
  delivery: { id: string; attempts: number },
  jobId: string | null,
  now: Date,
): Promise<number | null> {
  const attempts = delivery.attempts + 1
  const row = await db
    .updateTable('webhook_deliveries')
    .set({
      attempts,
      last_attempt_at: now,
      next_attempt_at: new Date(now.getTime() + retryDelaySeconds(attempts) * 1000),
    })
    .where('id', '=', delivery.id)
    .where('attempts', '=', delivery.attempts)
    .where(heldBy(jobId))
    .returning('attempts')
    .executeTakeFirst()
  return row ? row.attempts : null
}

/**
 * An attempt stopped before its POST (a database error reading the delivery or its endpoint): nothing was sent, so
 * nothing is counted; the row is let go for the relay to take again after the wait a failed attempt would have
 * brought (or given up once the 3 days have passed). Null when the row is no longer this job's.
 */
export async function releaseDelivery(
  db: DB,
  deliveryId: string,
  jobId: string | null,
  error: string,
  now: Date,
): Promise<'released' | 'gave_up' | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(['attempts', 'created_at'])
    .where('id', '=', deliveryId)
    .where(heldBy(jobId))
    .executeTakeFirst()
  if (!row) return null
  const next = nextTryAfter(row.created_at, row.attempts + 1, now)
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ job_id: null, last_error: error.slice(0, 300), next_attempt_at: next, failed_at: next ? null : now })
    .where('id', '=', deliveryId)
    .where(heldBy(jobId))
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) return null
  return next ? 'released' : 'gave_up'
}

/** The claimed attempt (claimAttempt counted it) was answered with a 2xx. */
export async function recordSuccess(db: DB, deliveryId: string, jobId: string | null, status: number, now: Date) {
  await db
    .updateTable('webhook_deliveries')
    .set({
      last_status_code: status,
      last_error: null,
      last_attempt_at: now,
      delivered_at: now,
      next_attempt_at: null,
      job_id: null,
    })
    .where('id', '=', deliveryId)
    .where(heldBy(jobId))
    .execute()
}

/**
 * The claimed attempt (claimAttempt counted it, `delivery.attempts` includes it) failed: the next one after the
 * back-off (the last one at the end of the 3 days from the delivery's creation), or none (failed) once those 3 days
 * have passed. Returns whether the delivery gave up.
 */
export async function recordFailure(
  db: DB,
  delivery: { id: string; attempts: number; created_at: Date },
  jobId: string | null,
  outcome: { status: number | null; error: string },
  now: Date,
): Promise<{ gaveUp: boolean; nextAttemptAt: Date | null }> {
  const next = nextTryAfter(delivery.created_at, delivery.attempts, now)
  await db
    .updateTable('webhook_deliveries')
    .set({
      last_status_code: outcome.status,
      last_error: outcome.error.slice(0, 300),
      last_attempt_at: now,
      next_attempt_at: next,
      failed_at: next ? null : now,
      job_id: null,
    })
    .where('id', '=', delivery.id)
    .where(heldBy(jobId))
    .execute()
  return { gaveUp: !next, nextAttemptAt: next }
}

/** Gives up a delivery without an attempt (its endpoint was disabled or deleted). */
export async function abandonDelivery(db: DB, deliveryId: string, jobId: string | null, reason: string, now: Date) {
  await db
    .updateTable('webhook_deliveries')
    .set({ failed_at: now, last_error: reason, next_attempt_at: null, job_id: null })
    .where('id', '=', deliveryId)
    .where(heldBy(jobId))
    .execute()
}
