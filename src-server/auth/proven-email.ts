// Signing in through a provider that proves the email address (Google, Facebook, a school's SSO): the account that
// uses the address is the one the sign-in links to.
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { userEmailIs } from '../users/email.ts'
import { invalidateUserSessions } from './session.ts'

/** The account that uses `email` (any case), if one does. */
export function accountWithEmail(trx: DB, email: string) {
  return trx.selectFrom('users').select(['id', 'role', 'email_verified']).where(userEmailIs(email)).executeTakeFirst()
}

/**
 * The provider proved who owns the account's address. If the account had not proven it, someone may have registered
 * the address without owning it: the unproven password and its sessions go, and the address counts as verified.
 */
export async function trustProvenOwner(trx: DB, user: { id: string; email_verified: boolean }) {
  if (user.email_verified) return
  await trx
    .updateTable('users')
    .set({ email_verified: true, password_hash: null, updated_at: clock.now() })
    .where('id', '=', user.id)
    .execute()
  await invalidateUserSessions(trx, user.id)
}
