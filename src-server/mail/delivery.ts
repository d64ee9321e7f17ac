// Delivers one outbox message (a 'mail.send' job). No transaction is open while SMTP is spoken to: a slow or
// silent server holds this job only, never the database. The queue retries a failure with back-off; the row's
// status ('pending', 'sent', 'logged', 'failed') and attempt count stay the truth the rest of the app reads.
import type { JobWithMetadata } from 'pg-boss'
import type { DB } from '../db.ts'
import type { JobLog, QueueOptions } from '../jobs/queue.ts'
import type { MailTransport } from './transport.ts'

export interface OutboxJob {
  outboxId: string
}

export interface MailDeps {
  db: DB
  log: JobLog
  transport: MailTransport
  from: string
}

export const MAIL_MAX_ATTEMPTS = 6

/** 6 tries: the retries wait 30–60 s, 1–2 min, 2–4, 4–8 and 8–16 min (pg-boss's jittered back-off). */
export const mailSendQueue: QueueOptions = {
  retryLimit: MAIL_MAX_ATTEMPTS - 1,
  retryDelay: 30,
  retryBackoff: true,
  retryDelayMax: 3600,
  // A worker that dies mid-send stops its heartbeat; its job is retried instead of waiting for expiry.
  heartbeatSeconds: 10,
  expireInSeconds: 300,
  deadLetter: 'mail.undeliverable',
}

export async function deliverOutboxMail(deps: MailDeps, job: JobWithMetadata<OutboxJob>): Promise<void> {
  const { db, log, transport } = deps
  const attempt = job.retryCount + 1
  const maxAttempts = job.retryLimit + 1
  // Counting the attempt before sending keeps attempts that a crash cut short visible.
  const mail = await db
    .updateTable('mail_outbox')
    .set({ attempts: attempt })
    .where('id', '=', job.data.outboxId)
    .where('status', '=', 'pending')
    .returning(['id', 'kind', 'to_address', 'subject', 'text_body', 'html_body'])
    .executeTakeFirst()
  if (!mail) return // already sent (a retry after a crash past the send), failed or removed

  try {
    await transport.send({
      from: deps.from,
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body ?? undefined,
    })
  } catch (error) {
    const gaveUp = attempt >= maxAttempts
    const next = gaveUp ? undefined : nextTryWindow(job)
    await db
      .updateTable('mail_outbox')
      .set({
        last_error: error instanceof Error ? error.message.slice(0, 500) : String(error),
        status: gaveUp ? 'failed' : 'pending',
        next_attempt_at: next?.earliest ?? new Date(),
      })
      .where('id', '=', mail.id)
      .where('status', '=', 'pending')
      .execute()
    const details = { err: error, mailId: mail.id, kind: mail.kind, attempt, maxAttempts }
    if (gaveUp) log.error(details, `mail delivery failed (attempt ${attempt} of ${maxAttempts}); giving up`)
    else {
      const window = `${next?.earliest.toISOString()} – ${next?.latest.toISOString()}`
      log.warn(
        { ...details, nextTryAfter: next?.earliest, nextTryBy: next?.latest },
        `mail delivery failed (attempt ${attempt} of ${maxAttempts}); next try ${window}`,
      )
    }
    throw error // the queue schedules the retry (or, after the last, the dead letter)
  }

  await db
    .updateTable('mail_outbox')
    .set({ status: transport.kind === 'smtp' ? 'sent' : 'logged', sent_at: new Date(), last_error: null })
    .where('id', '=', mail.id)
    .where('status', '=', 'pending')
    .execute()
}

/** A job whose tries ran out without the row being settled (its worker died on the last one): mark it failed. */
export async function markUndeliverable(deps: Pick<MailDeps, 'db' | 'log'>, outboxId: string): Promise<void> {
  const row = await deps.db
    .updateTable('mail_outbox')
    .set({ status: 'failed', last_error: (eb) => eb.fn.coalesce('last_error', eb.val('no attempt finished')) })
    .where('id', '=', outboxId)
    .where('status', '=', 'pending')
    .returning(['id', 'kind', 'attempts'])
    .executeTakeFirst()
  if (row) deps.log.error({ mailId: row.id, kind: row.kind, attempt: row.attempts }, 'mail undeliverable; giving up')
}

/**
 * When the queue will try again, by pg-boss's rule: with back-off a random delay between d·2ⁿ⁻¹ and d·2ⁿ seconds
 * (n = the attempt that failed, capped by retryDelayMax), else exactly d seconds.
 */
export function nextTryWindow(
  job: Pick<JobWithMetadata, 'retryCount' | 'retryDelay' | 'retryBackoff' | 'retryDelayMax'>,
  now = new Date(),
): { earliest: Date; latest: Date } {
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000)
  if (!job.retryBackoff) return { earliest: at(job.retryDelay), latest: at(job.retryDelay) }
  const cap = job.retryDelayMax ?? Number.POSITIVE_INFINITY
  const upper = Math.max(job.retryDelay, 1) * 2 ** Math.min(16, job.retryCount + 1)
  return { earliest: at(Math.min(cap, upper / 2)), latest: at(Math.min(cap, upper)) }
}
