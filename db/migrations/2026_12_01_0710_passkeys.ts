// Frozen: passkeys (WebAuthn) as a way to sign in (issue 28, decision 0066). A passkey is a credential id and its
// public key (COSE) with the authenticator's signature counter; challenges are kept server-side, single use, short.
// Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_passkeys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url, as WebAuthn sends it; unique across all accounts.
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'bytea', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('user_passkeys_user_idx').on('user_passkeys').column('user_id').execute()
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('register', 'sign_in')`))
    // The account registering a passkey; null for a sign-in (the passkey names its account).
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('webauthn_challenges_expires_idx')
    .on('webauthn_challenges')
    .column('expires_at')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute()
  await db.schema.dropTable('user_passkeys').execute()
}
