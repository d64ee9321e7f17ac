// Frozen: "Delete my account" (issue 28): a request waits out its cool-off in account_deletions (one per person),
// then the deletion job erases the account and marks the row erased. E-mailed confirmation codes for accounts
// without a password are auth tokens of a new purpose. Never import application code here.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_deletions')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // Staff who asked for the person (who wrote in); null when the person asked themselves.
    .addColumn('requested_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('erase_after', 'timestamptz', (c) => c.notNull())
    .addColumn('reminded_at', 'timestamptz')
    .addColumn('erased_at', 'timestamptz')
    .execute()
  await sql`create index account_deletions_due_idx on account_deletions (erase_after) where erased_at is null`.execute(
    db,
  )
  await sql`alter table auth_tokens drop constraint if exists auth_tokens_purpose_check`.execute(db)
  await sql`alter table auth_tokens add constraint auth_tokens_purpose_check
    check (purpose in ('verify_email','reset_password','confirm_action'))`.execute(db)
  // The retention job's scans.
  await sql`create index if not exists sessions_expires_idx on sessions (expires_at)`.execute(db)
  await sql`create index if not exists mail_outbox_sent_idx on mail_outbox (sent_at) where sent_at is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists mail_outbox_sent_idx`.execute(db)
  await sql`drop index if exists sessions_expires_idx`.execute(db)
  await sql`delete from auth_tokens where purpose = 'confirm_action'`.execute(db)
  await sql`alter table auth_tokens drop constraint if exists auth_tokens_purpose_check`.execute(db)
  await sql`alter table auth_tokens add constraint auth_tokens_purpose_check
    check (purpose in ('verify_email','reset_password'))`.execute(db)
  await db.schema.dropTable('account_deletions').execute()
}
