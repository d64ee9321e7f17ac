// Frozen: a sign-in handed from the platform's host to a school's own domain (decision 0063): the SHA-256 of a
// one-time code the platform posts to the domain, the account, the domain it is for, and the challenge (SHA-256 of a
// secret the domain's browser holds in a cookie) that binds it to the browser that asked. Used once, within a minute.
// Never import app code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_handoffs')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('site_host', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('remember', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('sign_in_handoffs_user_idx').on('sign_in_handoffs').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_handoffs').execute()
}
