// Frozen: API keys per school (issue 36, decision 0060). Only the SHA-256 of a key is stored, never the key; the
// prefix (its first characters) names it in lists. Scopes are 'resource:read|write'. Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('school_id', 'uuid', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 80`))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('api_keys_school_idx').on('api_keys').columns(['school_id', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute()
}
