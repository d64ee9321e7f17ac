// Frozen (2026-12-29). Two things staff could not see or keep:
// - a support answer's mail: each answer names its outbox row, so the support dialog shows whether it was sent,
//   printed, still queued or failed (decision 0100); the row may be purged later (retention), the answer stays.
// - "Available for chats" at the live chat desk: kept per staff member, so a return to the desk keeps their choice and
//   the heartbeat no longer makes an unticked member present again (decision 0102). Never import app code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('contact_replies')
    .addColumn('mail_id', 'uuid', (c) => c.references('mail_outbox.id').onDelete('set null'))
    .execute()
  await db.schema
    .alterTable('chat_desk_presence')
    .addColumn('available', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_desk_presence').dropColumn('available').execute()
  await db.schema.alterTable('contact_replies').dropColumn('mail_id').execute()
}
