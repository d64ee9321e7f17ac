// Frozen: the staff outbox listing (newest first, optionally by status), as of 2026-11-24. Never import
// application code here.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('mail_outbox_created_idx').on('mail_outbox').columns(['created_at desc', 'id']).execute()
  await db.schema
    .createIndex('mail_outbox_status_created_idx')
    .on('mail_outbox')
    .columns(['status', 'created_at desc'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_status_created_idx').ifExists().execute()
  await db.schema.dropIndex('mail_outbox_created_idx').ifExists().execute()
}
