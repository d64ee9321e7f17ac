// Frozen: staff answer a contact message from the support inbox (decision 0100, 2026-12-17): each reply is kept with
// its author and mailed to the sender; the first one marks the message answered. Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_replies')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('message_id', 'uuid', (c) => c.notNull().references('contact_messages.id').onDelete('cascade'))
    .addColumn('staff_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('contact_replies_message_idx')
    .on('contact_replies')
    .columns(['message_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_replies').ifExists().execute()
}
