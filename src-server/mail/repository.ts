// The outbox as staff see it (/admin/outbox): every message with its delivery state, one message's body, and
// Resend for a failed one. Resending puts the row back to 'pending' without a job: the relay (relay.ts) hands it
// to the job queue again, with a fresh set of attempts and the same back-off as a new message.
import type { DB } from '../kernel/db.ts'

export type OutboxStatus = 'pending' | 'sent' | 'logged' | 'failed'

export async function listOutbox(db: DB, options: { page: number; pageSize: number; status?: OutboxStatus }) {
  let filtered = db.selectFrom('mail_outbox')
  if (options.status) filtered = filtered.where('status', '=', options.status)
  const [rows, total] = await Promise.all([
    filtered
      .select(['id', 'kind', 'to_address', 'subject', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.to_address,
      subject: row.subject,
      status: row.status,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: row.created_at.toISOString(),
      sentAt: row.sent_at?.toISOString() ?? null,
    })),
    total: Number(total.n),
  }
}

/** One message in full (the body view), or undefined. */
export async function findOutboxMessage(db: DB, id: string) {
  const row = await db
    .selectFrom('mail_outbox')
    .select(['id', 'kind', 'to_address', 'reply_to', 'subject', 'text_body', 'status', 'attempts', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    id: row.id,
    kind: row.kind,
    to: row.to_address,
    replyTo: row.reply_to,
    subject: row.subject,
    text: row.text_body,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
  }
}

/**
 * Queues a failed message again; true when it was failed (a message already queued or sent is left alone, so
 * two clicks never send it twice).
 */
export async function requeueFailed(db: DB, id: string, now = new Date()): Promise<boolean> {
  const row = await db
    .updateTable('mail_outbox')
    .set({ status: 'pending', attempts: 0, job_id: null, next_attempt_at: now })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .returning('id')
    .executeTakeFirst()
  return row !== undefined
}

/** Removes messages settled (sent, logged or failed) before `before`, bodies and all (the retention job). */
export async function purgeSettledMail(db: DB, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('mail_outbox')
    .where('status', '!=', 'pending')
    .where((eb) => eb(eb.fn.coalesce('sent_at', 'created_at'), '<', before))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
