// Frozen: a person may move their account to another e-mail address. The change waits for a link mailed to the new
// address (purpose change_email, which carries the address it proves); the account keeps its old address until the
// link is used. Never import application code.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').addColumn('new_email', 'text').execute()
  await sql`alter table auth_tokens drop constraint if exists auth_tokens_purpose_check`.execute(db)
  await sql`alter table auth_tokens add constraint auth_tokens_purpose_check
    check (purpose in ('verify_email','reset_password','confirm_action','change_email'))`.execute(db)
  await sql`alter table auth_tokens add constraint auth_tokens_new_email_check
    check ((purpose = 'change_email') = (new_email is not null))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from auth_tokens where purpose = 'change_email'`.execute(db)
  await sql`alter table auth_tokens drop constraint if exists auth_tokens_new_email_check`.execute(db)
  await sql`alter table auth_tokens drop constraint if exists auth_tokens_purpose_check`.execute(db)
  await sql`alter table auth_tokens add constraint auth_tokens_purpose_check
    check (purpose in ('verify_email','reset_password','confirm_action'))`.execute(db)
  await db.schema.alterTable('auth_tokens').dropColumn('new_email').execute()
}
