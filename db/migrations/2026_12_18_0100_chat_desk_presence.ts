// Frozen: who is at the live chat desk (decision 0102, 2026-12-18). The desk page of an editor or above says so every
// 30 seconds; /contact says "Our team is online now" only while someone has in the last two minutes. One row per staff
// member, gone with their account. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chat_desk_presence')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('chat_desk_presence_seen_idx').on('chat_desk_presence').column('seen_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_desk_presence').ifExists().execute()
}
