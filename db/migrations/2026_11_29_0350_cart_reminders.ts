// Frozen: checkout recovery (issue 32). A buyer who ticked "E-mail me a reminder about this cart" has one row per
// order; the sweep settles it once (sent, bought since, already reminded, unsubscribed). Mails may carry a
// List-Unsubscribe address. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cart_reminders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('order_id', 'uuid', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('opted_in_at', 'timestamptz', (c) => c.notNull())
    // Set once by the sweep: what became of it.
    .addColumn('settled_at', 'timestamptz')
    .addColumn('outcome', 'text', (c) => c.check(sql`outcome in ('sent','bought','duplicate','unsubscribed')`))
    // SHA-256 of the unsubscribe link's token (the link is in the e-mail only).
    .addColumn('unsubscribe_hash', 'text', (c) => c.unique())
    .addCheckConstraint('cart_reminders_settled', sql`(settled_at is null) = (outcome is null)`)
    .execute()
  await sql`create index cart_reminders_open_idx on cart_reminders (opted_in_at) where settled_at is null`.execute(db)
  await sql`create index cart_reminders_user_idx on cart_reminders (user_id, settled_at)`.execute(db)
  await db.schema.alterTable('mail_outbox').addColumn('list_unsubscribe', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('list_unsubscribe').execute()
  await db.schema.dropTable('cart_reminders').execute()
}
