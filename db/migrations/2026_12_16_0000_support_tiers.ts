// Frozen: the support promised on /pricing (decision 0098, 2026-12-16). A contact message records who sent it (when
// signed in), the support tier their plan gave them then (Email, Priority email, 24/7 dedicated), when a reply is
// due, and when staff marked it answered; an Enterprise member may have a dedicated success manager on the staff.
// Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('contact_messages')
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('support_tier', 'text', (c) =>
      c.notNull().defaultTo('email').check(sql`support_tier in ('email', 'priority', 'dedicated')`),
    )
    .addColumn('reply_due_at', 'timestamptz')
    .addColumn('answered_at', 'timestamptz')
    .addColumn('answered_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .execute()
  // Messages sent before tiers were due within the Email tier's 48 hours.
  await sql`update contact_messages set reply_due_at = created_at + interval '48 hours'`.execute(db)
  await db.schema
    .alterTable('contact_messages')
    .alterColumn('reply_due_at', (c) => c.setNotNull())
    .execute()
  // The staff inbox reads open messages by when their reply is due.
  await sql`create index contact_messages_open_due_idx on contact_messages (reply_due_at) where answered_at is null`.execute(
    db,
  )
  await db.schema.createIndex('contact_messages_user_idx').on('contact_messages').column('user_id').execute()

  await db.schema
    .createTable('success_managers')
    .addColumn('member_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('manager_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('assigned_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('success_managers_manager_idx').on('success_managers').column('manager_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('success_managers').ifExists().execute()
  await db.schema.dropIndex('contact_messages_open_due_idx').ifExists().execute()
  await db.schema.dropIndex('contact_messages_user_idx').ifExists().execute()
  for (const column of ['answered_by', 'answered_at', 'reply_due_at', 'support_tier', 'user_id']) {
    await db.schema.alterTable('contact_messages').dropColumn(column).execute()
  }
}
