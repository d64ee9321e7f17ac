// The outbox as staff see it (/admin/outbox): every message with its delivery state, one message's body, and
// Resend for a failed one. Resending puts the row back to 'pending' without a job: the relay (relay.ts) hands it
// to the job queue again, with a fresh set of attempts and the same back-off as a new message.
import { sql } from 'kysely'
import type { DB } from '../kernel/db.ts'
import { pageOf } from '../kernel/paging.ts'
import { REDACTED, redactUrlsIn } from '../kernel/redact.ts'

export type OutboxStatus = 'pending' | 'sent' | 'logged' | 'failed'

// The columns the list and the message view share, under the names the admin screens read.
const outboxColumns = [
  'id',
  'kind',
  'to_address as to',
  'subject',
  'status',
  'attempts',
  'last_error as lastError',
] as const

export async function listOutbox(
  db: DB,
  options: { page: number; pageSize: number; status?: OutboxStatus; recipient?: string },
) {
  let filtered = db.selectFrom('mail_outbox')
  if (options.status) filtered = filtered.where('status', '=', options.status)
  // Addresses are kept as they were given; the schema lowercases the one searched for.
  if (options.recipient) filtered = filtered.where(sql<string>`lower(to_address)`, '=', options.recipient)
  const { rows, ...paging } = await pageOf(
    filtered
      .select([...outboxColumns, 'created_at as createdAt', 'sent_at as sentAt'])
      .orderBy('created_at', 'desc')
      .orderBy('id'),
    options.page,
    options.pageSize,
  )
  return {
    items: rows.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
    })),
    ...paging,
  }
}

/** One message in full (the body view), or undefined. */
export function findOutboxMessage(db: DB, id: string) {
  return db
    .selectFrom('mail_outbox')
    .select([...outboxColumns, 'reply_to as replyTo', 'text_body as text'])
    .where('id', '=', id)
    .executeTakeFirst()
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

/** Where a message stands, for a screen that names its mail but may not read it (the support dialog, decision 0100). */
export interface MailDelivery {
  status: OutboxStatus
  attempts: number
  /** Why the last try failed (still queued) or why it was given up (failed); null once sent. */
  problem: string | null
}

/**
 * The delivery state of each of these outbox rows, by id: status, attempts and the last error, never the body, the
 * recipient or anything like a secret (a link's token, an address's password) in the error. Rows gone (purged after
 * retention) are absent.
 */
export async function mailDeliveries(db: DB, ids: readonly string[]): Promise<Map<string, MailDelivery>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'status', 'attempts', 'last_error'])
    .where('id', 'in', [...ids])
    .execute()
  return new Map(
    rows.map((row) => [
      row.id,
      {
        status: row.status,
        attempts: row.attempts,
        problem: row.status === 'sent' || row.status === 'logged' || !row.last_error ? null : safeError(row.last_error),
      },
    ]),
  )
}

/** An SMTP error as staff other than admins may read it: no credentials in an address, no link's secrets. */
function safeError(error: string): string {
  return redactUrlsIn(error.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, `$1${REDACTED}@`)).slice(0, 200)
}
