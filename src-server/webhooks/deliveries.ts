// Webhook deliveries (decision 0061): the only writer of webhook_deliveries. An event becomes one row per subscribed
// endpoint in the transaction of the change it reports (an outbox: the row exists if and only if the change
// commits); the relay puts due rows on the job queue; each attempt's outcome schedules the next with exponential
// back-off until 3 days have passed.
import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import { sql } from 'kysely'
import type { Database } from '../../db/types.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueRows } from '../kernel/relay.ts'

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

/**
 * Puts the due deliveries of enabled endpoints on the queue: one short transaction takes them (SKIP LOCKED, so
 * several workers never take the same row), enqueues a job per row and stores its id, committed together.
 */
export async function relayDueDeliveries(db: DB, enqueue: EnqueueWebhookDelivery, now = clock.now()) {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('delivered_at', 'is', null)
      .where('failed_at', 'is', null)
      .where('job_id', 'is', null)
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

export async function recordSuccess(db: DB, deliveryId: string, status: number, now: Date) {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_status_code: status,
      last_error: null,
      last_attempt_at: now,
      delivered_at: now,
      next_attempt_at: null,
      job_id: null,
    }))
    .where('id', '=', deliveryId)
    .execute()
}

/**
 * A failed attempt: the next one after the back-off (the last one at the end of the 3 days from the delivery's
 * creation), or none (failed) once those 3 days have passed. Returns whether the delivery gave up.
 */
export async function recordFailure(
  db: DB,
  delivery: { id: string; attempts: number; created_at: Date },
  outcome: { status: number | null; error: string },
  now: Date,
): Promise<{ gaveUp: boolean; nextAttemptAt: Date | null }> {
  const attempts = delivery.attempts + 1
  const deadline = delivery.created_at.getTime() + RETRY_WINDOW_MS
  // The last attempt falls at the end of the 3 days (so an endpoint failing throughout is disabled by it).
  const next = new Date(Math.min(now.getTime() + retryDelaySeconds(attempts) * 1000, deadline))
  const gaveUp = now.getTime() >= deadline
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts,
      last_status_code: outcome.status,
      last_error: outcome.error.slice(0, 300),
      last_attempt_at: now,
      next_attempt_at: gaveUp ? null : next,
      failed_at: gaveUp ? now : null,
      job_id: null,
    })
    .where('id', '=', delivery.id)
    .execute()
  return { gaveUp, nextAttemptAt: gaveUp ? null : next }
}

/** Gives up a delivery without an attempt (its endpoint was disabled or deleted). */
export async function abandonDelivery(db: DB, deliveryId: string, reason: string, now: Date) {
  await db
    .updateTable('webhook_deliveries')
    .set({ failed_at: now, last_error: reason, next_attempt_at: null, job_id: null })
    .where('id', '=', deliveryId)
    .execute()
}
