// Frozen: a sign-up's verification link knows the browser that signed up (decision 0134's second part). Opened there,
// it applies the sign-up's password as before; opened anywhere else it asks for that password first, so the owner of
// an address who clicks a stranger's sign-up mail does not give the stranger their account. Never import application
// code.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').addColumn('signup_browser_hash', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').dropColumn('signup_browser_hash').execute()
}
