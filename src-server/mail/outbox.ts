// Every e-mail is first written to the mail_outbox table (in the caller's transaction when it has one), so a
// failing SMTP server never loses a message or fails the request; the job queue delivers it later (relay.ts).
import type { DB } from '../kernel/db.ts'

export interface OutgoingMail {
  kind: string
  to: string
  subject: string
  text: string
  html?: string
  /** Reply-To: where an answer should go (e.g. the sender of a contact message). */
  replyTo?: string
  /** A List-Unsubscribe address (https), for mails a person opted into (a cart reminder). */
  listUnsubscribe?: string
  /** The sender's display name instead of MAIL_FROM's (a white-label school's mails); the address stays. */
  fromName?: string
  /** A calendar invitation sent with the mail (a live session's .ics) and its METHOD. */
  calendar?: { ics: string; method: 'REQUEST' | 'CANCEL' }
}

export async function enqueueMail(db: DB, mail: OutgoingMail): Promise<string> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      kind: mail.kind,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      reply_to: mail.replyTo ?? null,
      ...(mail.listUnsubscribe ? { list_unsubscribe: mail.listUnsubscribe } : {}),
      ...(mail.fromName ? { from_name: mail.fromName.slice(0, 100) } : {}),
      ...(mail.calendar ? { calendar_ics: mail.calendar.ics, calendar_method: mail.calendar.method } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** The newest message of a kind sent to an address (tests and the development outbox viewer use it). */
export function latestMailTo(db: DB, to: string, kind?: string) {
  let query = db
    .selectFrom('mail_outbox')
    .select(['id', 'kind', 'to_address', 'reply_to', 'subject', 'text_body', 'html_body', 'status', 'created_at'])
    .where('to_address', '=', to)
  if (kind) query = query.where('kind', '=', kind)
  return query.orderBy('created_at', 'desc').limit(1).executeTakeFirst()
}
