// Frozen: a live chat nobody joined is not lost (decision 0101, 2026-12-18). The member may leave a waiting chat as a
// message, and one still waiting when the chat closes is passed on the same way: it ends ('inbox') and becomes a
// contact message in the support inbox, which the chat names. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('chat_conversations')
    .addColumn('contact_message_id', 'uuid', (c) => c.references('contact_messages.id').onDelete('set null'))
    .execute()
  await sql`alter table chat_conversations drop constraint chat_conversations_closed_by_check`.execute(db)
  await sql`alter table chat_conversations add constraint chat_conversations_closed_by_check
    check (closed_by in ('member', 'staff', 'inbox'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update chat_conversations set closed_by = 'member' where closed_by = 'inbox'`.execute(db)
  await sql`alter table chat_conversations drop constraint chat_conversations_closed_by_check`.execute(db)
  await sql`alter table chat_conversations add constraint chat_conversations_closed_by_check
    check (closed_by in ('member', 'staff'))`.execute(db)
  await db.schema.alterTable('chat_conversations').dropColumn('contact_message_id').execute()
}
