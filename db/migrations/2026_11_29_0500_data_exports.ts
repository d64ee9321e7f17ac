// Frozen: "Download my data" (issue 28): each request of a person's data export, built by a job into a private ZIP,
// downloadable by that person for 7 days. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Staff who ran it for the person (who asked by e-mail); null when the person asked themselves.
    .addColumn('requested_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending','ready','failed','expired')`),
    )
    .addColumn('storage_key', 'text')
    .addColumn('size_bytes', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ready_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute()
  // One export in the making per person: asking again while one is pending changes nothing.
  await sql`create unique index data_exports_one_pending_idx on data_exports (user_id) where status = 'pending'`.execute(
    db,
  )
  await sql`create index data_exports_user_idx on data_exports (user_id, created_at desc)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_exports').execute()
}
