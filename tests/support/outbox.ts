// Reading the mail outbox in tests: what the shop queued for one address.
import type { DB } from '../../src-server/kernel/db.ts'

/** Every e-mail queued for an address, oldest first: its kind, subject and text. */
export const mailsTo = (db: DB, email: string) =>
  db
    .selectFrom('mail_outbox')
    .select(['kind', 'subject', 'text_body'])
    .where('to_address', '=', email)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
