// Frozen: contact messages and the catalogue's sort indexes as of 2026-11-22. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('contact_messages_created_idx').on('contact_messages').column('created_at').execute()

  // One index per catalogue sort, so a page of published courses is read in order instead of sorted whole.
  // (Most Popular already has courses_status_popular_idx.)
  await db.schema.createIndex('courses_status_rating_idx').on('courses').columns(['status', 'rating']).execute()
  await db.schema.createIndex('courses_status_created_idx').on('courses').columns(['status', 'created_at']).execute()
  await db.schema.createIndex('courses_status_price_idx').on('courses').columns(['status', 'price_minor']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['courses_status_rating_idx', 'courses_status_created_idx', 'courses_status_price_idx']) {
    await db.schema.dropIndex(index).ifExists().execute()
  }
  await db.schema.dropTable('contact_messages').ifExists().execute()
}
