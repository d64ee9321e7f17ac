// Frozen: second factors (TOTP and recovery codes), the pending step of a two-step log-in, the devices a user has
// signed in from, and what the sessions list shows of each session (issue 28). Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // What the sessions list shows: the browser's user agent and the client address's network (never the address).
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute()
  await db.schema.alterTable('sessions').addColumn('ip_network', 'text').execute()

  // One TOTP secret per user: confirmed_at null while enrolment waits for its first code.
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('last_used_step', 'integer') // unix time / 30 fits until the year 4000
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('user_recovery_codes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'bytea', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema
    .createIndex('user_recovery_codes_user_hash_key')
    .on('user_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .unique()
    .execute()

  // The password was right, the second factor is still to come: no session yet.
  await db.schema
    .createTable('pending_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('remember', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('pending_logins_user_idx').on('pending_logins').column('user_id').execute()

  // Browser + system + network of each sign-in, hashed: a sign-in from a new one mails a notice.
  await db.schema
    .createTable('known_devices')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_key', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('known_devices_pkey', ['user_id', 'device_key'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('known_devices').ifExists().execute()
  await db.schema.dropTable('pending_logins').ifExists().execute()
  await db.schema.dropTable('user_recovery_codes').ifExists().execute()
  await db.schema.dropTable('user_totp').ifExists().execute()
  await db.schema.alterTable('sessions').dropColumn('ip_network').execute()
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute()
}
