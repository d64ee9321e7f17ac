// Frozen: live chat for visitors who are not signed in (decision 0103, 2026-12-19). A chat belongs to a member or to a
// visitor, who gives a name and an address and holds the chat by a random token in an HttpOnly cookie; only the
// token's SHA-256 is stored, one chat a token. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('chat_conversations')
    .alterColumn('user_id', (c) => c.dropNotNull())
    .addColumn('visitor_name', 'text')
    .addColumn('visitor_email', 'text')
    .addColumn('visitor_token_hash', 'text', (c) => c.unique())
    .execute()
  await sql`alter table chat_conversations add constraint chat_conversations_owner_check check (
    (user_id is not null and visitor_token_hash is null and visitor_email is null and visitor_name is null)
    or (user_id is null and visitor_token_hash is not null and visitor_email is not null and visitor_name is not null))`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('chat_conversations').where('user_id', 'is', null).execute()
  await sql`alter table chat_conversations drop constraint chat_conversations_owner_check`.execute(db)
  await db.schema
    .alterTable('chat_conversations')
    .dropColumn('visitor_token_hash')
    .dropColumn('visitor_email')
    .dropColumn('visitor_name')
    .alterColumn('user_id', (c) => c.setNotNull())
    .execute()
}
