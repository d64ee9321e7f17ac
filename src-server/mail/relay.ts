// The outbox is written in the caller's transaction (outbox.ts), by code that knows nothing of the queue. The
// relay moves new rows onto the queue: one short transaction takes them (SKIP LOCKED, so several worker nodes
// never take the same row), enqueues a delivery job per row and stores its id, all committed together.
import type { Transaction } from 'kysely'
import type { Database } from '../../db/types.ts'
import type { DB } from '../kernel/db.ts'
import type { Log } from '../kernel/log.ts'
import { enqueueRows } from '../kernel/relay.ts'
import { repeatEvery } from '../kernel/repeat.ts'

/** Enqueues the delivery of one outbox row inside the relay's transaction; resolves to the job's id. */
export type EnqueueDelivery = (
  outboxId: string,
  trx: Transaction<Database>,
  options: { priority: number },
) => Promise<string>

const BATCH = 50

/**
 * Mails sent to many people at once by one event or a sweep (a live session announced to a course's every holder,
 * digests, reminders, monthly statements). They go after every other mail waiting: a verification link, a reset
 * code or a receipt is someone waiting now, and must not queue behind a course's 10,000 announcements.
 */
const BULK_KINDS = new Set([
  'live_announced',
  'live_reminder',
  'drip_unlocked',
  'question_digest',
  'instructor_message_digest',
  'cart_reminder',
  'trial_ending',
  'renewal_reminder',
  'pool_share',
  'hold_release',
])

/** The queue priority of a mail of this kind (pg-boss fetches higher first). */
export function mailPriority(kind: string): number {
  return BULK_KINDS.has(kind) ? 0 : 10
}

export async function relayOutbox(db: DB, enqueue: EnqueueDelivery): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('mail_outbox')
      .select(['id', 'kind'])
      .where('status', '=', 'pending')
      .where('job_id', 'is', null)
      .orderBy('created_at')
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .execute()
    return enqueueRows(trx, 'mail_outbox', rows, (id, trx, row) =>
      enqueue(id, trx, { priority: mailPriority(row.kind) }),
    )
  })
}

/** Relays every interval until stopped; a failed pass (database outage) is logged and retried on the next. */
export function startOutboxRelay(options: { db: DB; enqueue: EnqueueDelivery; log: Log; intervalMs?: number }) {
  return repeatEvery(() => relayOutbox(options.db, options.enqueue), { ...options, what: 'mail relay' })
}
