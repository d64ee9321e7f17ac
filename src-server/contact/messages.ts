// A contact message is stored and its staff notification queued in one transaction: both or neither.
import type { ContactMessage } from '../../src-shared/schemas/contact.ts'
import type { DB } from '../kernel/db.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { staffEmail } from '../mail/staff-address.ts'

export async function submitContactMessage(db: DB, message: ContactMessage, to = staffEmail()) {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('contact_messages')
      .values({ name: message.name, email: message.email, subject: message.subject, message: message.message })
      .returning('id')
      .executeTakeFirstOrThrow()
    await enqueueMail(trx, {
      kind: 'contact-message',
      to,
      replyTo: message.email, // staff answer the sender straight from their mail client
      subject: `Contact form: ${message.subject}`,
      text: [
        `From: ${message.name} <${message.email}>`,
        `Subject: ${message.subject}`,
        '',
        message.message,
        '',
        `Message id: ${row.id}`,
      ].join('\n'),
    })
    return row.id
  })
}

/** Removes contact messages received before `before` (the retention job). */
export async function purgeOldContactMessages(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('contact_messages').where('created_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
