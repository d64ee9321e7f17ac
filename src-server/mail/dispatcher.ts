// Sends due outbox rows: over SMTP (nodemailer) when SMTP_URL is set, else logs them and marks them 'logged'.
// Failures back off exponentially and give up after MAX_ATTEMPTS; rows are claimed with SKIP LOCKED so several
// server nodes can run dispatchers side by side.
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import nodemailer from 'nodemailer'
import type { DB } from '../db.ts'

const MAX_ATTEMPTS = 6
const BATCH = 20

export interface MailTransport {
  readonly kind: 'smtp' | 'log'
  send(message: {
    from: string
    to: string
    replyTo?: string
    subject: string
    text: string
    html?: string
  }): Promise<void>
}

export function createMailTransport(smtpUrl: string | undefined, log: FastifyBaseLogger): MailTransport {
  if (!smtpUrl) {
    return {
      kind: 'log',
      async send(message) {
        log.info({ to: message.to, subject: message.subject }, 'mail (no SMTP_URL set; kept in the outbox)')
      },
    }
  }
  // Timeouts keep a dead SMTP server from holding the dispatcher for minutes.
  const url = new URL(smtpUrl)
  if (!url.searchParams.has('connectionTimeout')) url.searchParams.set('connectionTimeout', '10000')
  if (!url.searchParams.has('socketTimeout')) url.searchParams.set('socketTimeout', '20000')
  const transporter = nodemailer.createTransport(url.toString())
  return {
    kind: 'smtp',
    async send(message) {
      await transporter.sendMail(message)
    },
  }
}

export async function dispatchDueMail(
  db: DB,
  transport: MailTransport,
  from: string,
  now = new Date(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('mail_outbox')
      .select(['id', 'to_address', 'reply_to', 'subject', 'text_body', 'html_body', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('created_at')
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .execute()
    for (const mail of due) {
      try {
        await transport.send({
          from,
          to: mail.to_address,
          replyTo: mail.reply_to ?? undefined,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body ?? undefined,
        })
        await trx
          .updateTable('mail_outbox')
          .set({ status: transport.kind === 'smtp' ? 'sent' : 'logged', sent_at: now, attempts: mail.attempts + 1 })
          .where('id', '=', mail.id)
          .execute()
      } catch (error) {
        const attempts = mail.attempts + 1
        const backoffSeconds = 30 * 2 ** (attempts - 1)
        await trx
          .updateTable('mail_outbox')
          .set({
            attempts,
            last_error: error instanceof Error ? error.message.slice(0, 500) : String(error),
            status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
            next_attempt_at: sql<Date>`${now}::timestamptz + make_interval(secs => ${backoffSeconds})`,
          })
          .where('id', '=', mail.id)
          .execute()
      }
    }
    return due.length
  })
}

/** Polls the outbox until stopped. A database outage is logged and retried on the next tick. */
export function startMailDispatcher(options: {
  db: DB
  transport: MailTransport
  from: string
  log: FastifyBaseLogger
  intervalMs?: number
}): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve()
  const timer = setInterval(() => {
    running = dispatchDueMail(options.db, options.transport, options.from).catch((error) =>
      options.log.warn({ err: error }, 'mail dispatcher: will retry'),
    )
  }, options.intervalMs ?? 2000)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
