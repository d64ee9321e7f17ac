// Frozen: live chat on /contact (decision 0099, 2026-12-17). A signed-in member opens a chat in the staffed hours; the
// staff member who takes it answers in the page; either side ends it and the member is mailed the transcript. A
// member has at most one open chat (the partial unique index is what keeps two starts at once to one chat).
// Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chat_conversations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('assigned_to', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'text', (c) => c.check(sql`closed_by in ('member', 'staff')`))
    .execute()
  await sql`create unique index chat_conversations_one_open_idx on chat_conversations (user_id) where closed_at is null`.execute(
    db,
  )
  await sql`create index chat_conversations_open_idx on chat_conversations (created_at) where closed_at is null`.execute(
    db,
  )

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('conversation_id', 'uuid', (c) => c.notNull().references('chat_conversations.id').onDelete('cascade'))
    // The staff member who wrote it; null: the member.
    .addColumn('staff_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('from_staff', 'boolean', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('chat_messages_conversation_idx')
    .on('chat_messages')
    .columns(['conversation_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_messages').ifExists().execute()
  await db.schema.dropTable('chat_conversations').ifExists().execute()
}
