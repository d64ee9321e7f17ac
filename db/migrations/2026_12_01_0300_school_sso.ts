// Frozen: single sign-on with OpenID Connect per school (issue 36, decision 0062): the school's provider (issuer,
// client id, the client secret sealed at rest), the e-mail domains it may sign in, whether members must use it; and
// the provider identities linked to local accounts. Never import application code here.
import { type Kysely, sql } from 'kysely'

const now = sql`now()`

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('school_sso')
    .addColumn('school_id', 'uuid', (c) => c.primaryKey().references('schools.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull().check(sql`char_length(issuer) between 8 and 300`))
    .addColumn('client_id', 'text', (c) => c.notNull().check(sql`char_length(client_id) between 1 and 300`))
    .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('allowed_domains', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('require_for_members', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute()

  await db.schema
    .createTable('school_sso_links')
    .addColumn('school_id', 'uuid', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('school_sso_links_pk', ['school_id', 'issuer', 'subject'])
    .execute()
  await db.schema.createIndex('school_sso_links_user_idx').on('school_sso_links').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('school_sso_links').execute()
  await db.schema.dropTable('school_sso').execute()
}
