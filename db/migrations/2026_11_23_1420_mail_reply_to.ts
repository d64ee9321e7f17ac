// Frozen: a Reply-To address for outbox mail as of 2026-11-23 (the staff copy of a contact message answers the
// sender). Never import application code here.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('reply_to', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('reply_to').execute()
}
