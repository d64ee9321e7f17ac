// Frozen: staff find the mail sent to one address (/admin/outbox's Recipient), newest first, as of 2026-12-07.
// Addresses are kept as given, so the index is on lower(to_address), as the search compares. Never import
// application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index mail_outbox_recipient_created_idx on mail_outbox (lower(to_address), created_at desc, id)`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_recipient_created_idx').ifExists().execute()
}
