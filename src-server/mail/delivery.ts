// Delivers one outbox message (the job queue's 'mail.send' handler). No transaction is open while SMTP is spoken
// to: a slow or silent server holds this job only, never the database. A failure is recorded and logged with the
// attempt count and the next try, then rethrown for the queue to retry; the row's status ('pending', 'sent',
// 'logged', 'failed') and attempt count stay the truth the rest of the app reads.
import type { DB } from '../kernel/db.ts'
import type { Log } from '../kernel/log.ts'
import type { MailTransport } from './transport.ts'
import { listUnsubscribeHeaders } from './unsubscribe.ts'

export interface MailDeps {
  db: DB
  log: Log
  transport: MailTransport
  from: string
}

/** Which try this is, and when a failure would be retried (undefined on the last try). */
export interface DeliveryAttempt {
  number: number
  of: number
  nextTry?: { earliest: Date; latest: Date }
}

/** MAIL_FROM's address under another display name: `"Brandt Institute" <no-reply@example.com>`. */
export function withDisplayName(from: string, name: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim()
  const quoted = name.replace(/[\r\n]+/g, ' ').replace(/["\\]/g, (c) => `\\${c}`)
  return `"${quoted}" <${address}>`
}

export async function deliverOutboxMail(deps: MailDeps, outboxId: string, attempt: DeliveryAttempt): Promise<void> {
  const { db, log, transport } = deps
  // Counting the attempt before sending keeps attempts that a crash cut short visible.
  const mail = await db
    .updateTable('mail_outbox')
    .set({ attempts: attempt.number })
    .where('id', '=', outboxId)
    .where('status', '=', 'pending')
    .returning([
      'id',
      'kind',
      'to_address',
      'reply_to',
      'subject',
      'text_body',
      'html_body',
      'list_unsubscribe',
      'calendar_ics',
      'calendar_method',
      'from_name',
    ])
    .executeTakeFirst()
  if (!mail) return // already sent (a retry after a crash past the send), failed or removed

  try {
    await transport.send({
      from: mail.from_name ? withDisplayName(deps.from, mail.from_name) : deps.from,
      to: mail.to_address,
      replyTo: mail.reply_to ?? undefined,
      // One-click (RFC 8058): the address takes a POST with no log-in and no page in between (unsubscribe.ts).
      ...(mail.list_unsubscribe ? { headers: listUnsubscribeHeaders(mail.list_unsubscribe) } : {}),
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body ?? undefined,
      ...(mail.calendar_ics
        ? {
            icalEvent: {
              method: mail.calendar_method ?? 'REQUEST',
              filename: 'invite.ics',
              content: mail.calendar_ics,
            },
          }
        : {}),
    })
  } catch (error) {
    const next = attempt.nextTry
    await db
      .updateTable('mail_outbox')
      .set({
        last_error: error instanceof Error ? error.message.slice(0, 500) : String(error),
        status: next ? 'pending' : 'failed',
        next_attempt_at: next?.earliest ?? new Date(),
      })
      .where('id', '=', mail.id)
      .where('status', '=', 'pending')
      .execute()
    const details = { err: error, mailId: mail.id, kind: mail.kind, attempt: attempt.number, maxAttempts: attempt.of }
    const failed = `mail delivery failed (attempt ${attempt.number} of ${attempt.of})`
    if (!next) log.error(details, `${failed}; giving up`)
    else {
      const window = `${next.earliest.toISOString()} – ${next.latest.toISOString()}`
      log.warn({ ...details, nextTryAfter: next.earliest, nextTryBy: next.latest }, `${failed}; next try ${window}`)
    }
    throw error
  }

  await db
    .updateTable('mail_outbox')
    .set({ status: transport.kind === 'smtp' ? 'sent' : 'logged', sent_at: new Date(), last_error: null })
    .where('id', '=', mail.id)
    .where('status', '=', 'pending')
    .execute()
}

/**
 * Tries ran out without the row being settled (its worker died on the last one): mark it failed, unless the row
 * has been handed to another job since (Resend in /admin/outbox) — `deadJobId` is the job whose tries ran out.
 */
export async function markUndeliverable(
  deps: Pick<MailDeps, 'db' | 'log'>,
  outboxId: string,
  deadJobId?: string | null,
): Promise<void> {
  let query = deps.db
    .updateTable('mail_outbox')
    .set({ status: 'failed', last_error: (eb) => eb.fn.coalesce('last_error', eb.val('no attempt finished')) })
    .where('id', '=', outboxId)
    .where('status', '=', 'pending')
  if (deadJobId) query = query.where('job_id', '=', deadJobId)
  const row = await query.returning(['id', 'kind', 'attempts']).executeTakeFirst()
  if (row) deps.log.error({ mailId: row.id, kind: row.kind, attempt: row.attempts }, 'mail undeliverable; giving up')
}
