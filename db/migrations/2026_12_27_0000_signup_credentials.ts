// Frozen: a sign-up's credentials ride on its verification link (decision 0134). Signing up again for an address not
// verified yet used to keep the first sign-up's password, so whoever signed up first with someone else's address held
// the account its owner then verified. Each link now carries the password hash and names of the sign-up that asked
// for it, and verifying applies them. Never import application code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('auth_tokens')
    .addColumn('signup_password_hash', 'text')
    .addColumn('signup_first_name', 'text')
    .addColumn('signup_last_name', 'text')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('auth_tokens')
    .dropColumn('signup_password_hash')
    .dropColumn('signup_first_name')
    .dropColumn('signup_last_name')
    .execute()
}
