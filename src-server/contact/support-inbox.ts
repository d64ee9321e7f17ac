// The staff support inbox (/admin/support): contact messages by when their reply is due, so a 24/7 dedicated or
// priority message sent after an email-tier one still comes first; answered ones apart, newest answer first.
import { sql } from 'kysely'
import type { SupportInboxStatus } from '../../src-shared/schemas/support.ts'
import * as audit from '../audit/repository.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { pageOf } from '../kernel/paging.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { mailDeliveries } from '../mail/repository.ts'
import { staffEmail } from '../mail/staff-address.ts'

export async function listSupportInbox(
  db: DB,
  options: { status: SupportInboxStatus; page: number; pageSize: number; sender?: string },
) {
  let base = db
    .selectFrom('contact_messages as m')
    .leftJoin('users as answerer', 'answerer.id', 'm.answered_by')
    .select([
      'm.id',
      'm.name',
      'm.email',
      'm.subject',
      'm.message',
      'm.support_tier as tier',
      'm.created_at as sentAt',
      'm.reply_due_at as replyDueAt',
      'm.answered_at as answeredAt',
      'answerer.email as answeredBy',
    ])
  // Addresses are kept as typed; the search is lowercased (src-shared/schemas/admin.ts searchedAddress).
  if (options.sender) base = base.where(sql<string>`lower(m.email)`, '=', options.sender)
  const ordered =
    options.status === 'open'
      ? base.where('m.answered_at', 'is', null).orderBy('m.reply_due_at').orderBy('m.id')
      : base.where('m.answered_at', 'is not', null).orderBy('m.answered_at', 'desc').orderBy('m.id')
  const { rows, ...paging } = await pageOf(ordered, options.page, options.pageSize)
  return {
    items: rows.map((row) => ({
      ...row,
      sentAt: row.sentAt.toISOString(),
      replyDueAt: row.replyDueAt.toISOString(),
      answeredAt: row.answeredAt?.toISOString() ?? null,
    })),
    ...paging,
  }
}

export const ALREADY_ANSWERED = 'This message is already marked answered'

/** Marks an open message answered by the staff member; a second press is refused, not recorded twice. */
export async function markAnswered(db: DB, actor: audit.Actor, id: string, now = clock.now()) {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('contact_messages')
      .set({ answered_at: now, answered_by: actor.id })
      .where('id', '=', id)
      .where('answered_at', 'is', null)
      .returning('id')
      .executeTakeFirst()
    if (!updated) {
      const exists = await trx.selectFrom('contact_messages').select('id').where('id', '=', id).executeTakeFirst()
      throw exists ? new DomainError('conflict', ALREADY_ANSWERED) : new DomainError('not_found', 'Message not found')
    }
    await audit.record(trx, actor, 'support.answered', { type: 'contact_message', id, after: { answered: true } })
    return { id, answeredAt: now.toISOString() }
  })
}

/**
 * A staff member answers a message from the inbox: the reply is kept with its outbox mail's id, mailed to the sender (their answers come back
 * to the staff address) and, the first time, marks the message answered — all in one transaction, or none of it. A
 * follow-up on an answered message is kept and mailed too; the first answer's time and author stay.
 */
export async function replyToMessage(db: DB, actor: audit.Actor, id: string, body: string, now = clock.now()) {
  return db.transaction().execute(async (trx) => {
    const message = await trx
      .selectFrom('contact_messages')
      .select(['name', 'email', 'subject', 'message', 'created_at', 'answered_at'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()
    if (!message) throw new DomainError('not_found', 'Message not found')
    const author = await trx.selectFrom('users').select('first_name').where('id', '=', actor.id).executeTakeFirst()
    if (!message.answered_at) {
      await trx
        .updateTable('contact_messages')
        .set({ answered_at: now, answered_by: actor.id })
        .where('id', '=', id)
        .execute()
    }
    // The answer names its mail, so the dialog can say whether it left (queued is not sent: SMTP may be down).
    const mailId = await enqueueMail(trx, {
      kind: 'contact-reply',
      to: message.email,
      replyTo: staffEmail(),
      subject: `Re: ${message.subject}`,
      text: [
        `Hello ${message.name},`,
        '',
        body,
        '',
        `${author?.first_name || 'The support team'}, SkillForge support`,
        '',
        `On ${message.created_at.toISOString().slice(0, 10)} you wrote:`,
        ...message.message.split('\n').map((line) => `> ${line}`),
      ].join('\n'),
    })
    await trx
      .insertInto('contact_replies')
      .values({ message_id: id, staff_id: actor.id, body, created_at: now, mail_id: mailId })
      .execute()
    await audit.record(trx, actor, 'support.replied', { type: 'contact_message', id, after: { replied: true } })
    // Queued, not sent: the outbox delivers it later (the dialog shows how that went).
    return { id, answeredAt: (message.answered_at ?? now).toISOString(), delivery: 'pending' as const }
  })
}

/**
 * The answers staff wrote to a message, oldest first, with who wrote each and where its mail stands (queued, sent,
 * printed without SMTP, failed and why; null when the outbox no longer holds it): editors may answer but not open the
 * outbox, and "sent" must not be claimed for a mail still queued or given up.
 */
export async function repliesTo(db: DB, id: string) {
  const rows = await db
    .selectFrom('contact_replies as r')
    .leftJoin('users as staff', 'staff.id', 'r.staff_id')
    .select(['r.id', 'r.body', 'r.created_at as sentAt', 'staff.email as sentBy', 'r.mail_id as mailId'])
    .where('r.message_id', '=', id)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute()
  const deliveries = await mailDeliveries(
    db,
    rows.flatMap((row) => (row.mailId ? [row.mailId] : [])),
  )
  return rows.map(({ mailId, ...row }) => ({
    ...row,
    sentAt: row.sentAt.toISOString(),
    delivery: (mailId && deliveries.get(mailId)) || null,
  }))
}
