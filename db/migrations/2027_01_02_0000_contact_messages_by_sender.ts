// Frozen: staff find one person's messages in the support inbox (/admin/support's Sender), as of 2026-12-07.
// Addresses are kept as typed, so the index is on lower(email), as the search compares. Never import application code
// here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index contact_messages_sender_idx on contact_messages (lower(email))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('contact_messages_sender_idx').ifExists().execute()
}
