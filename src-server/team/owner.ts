// The first owner (super_admin): created from ADMIN_EMAIL/ADMIN_PASSWORD at start-up, or by `npm run admin:create`.

import { hashPassword } from '../auth/password.ts'
import { invalidateUserSessions } from '../auth/session.ts'
import * as clock from '../kernel/clock.ts'
import type { DB } from '../kernel/db.ts'
import { userEmailIs } from '../users/email.ts'

/**
 * created: no account had the address. promoted: a verified account became the owner, its password kept.
 * claimed: an unverified account had the address (anyone may sign up with it): it became the owner with the
 * given password, verified, and its sessions ended. exists: already the owner; nothing changed.
 */
export type EnsureOwnerResult = 'created' | 'promoted' | 'claimed' | 'exists'

/**
 * Makes sure an owner account exists for this e-mail. A verified account keeps its password, so a restart never
 * resets it. Safe when several instances start together on one database: the insert ignores a concurrent
 * twin and the row is then read back under a lock.
 */
export async function ensureOwner(db: DB, email: string, password: string): Promise<EnsureOwnerResult> {
  const normalised = email.trim().toLowerCase()
  const current = await findAccount(db, normalised)
  if (current?.role === 'super_admin' && current.email_verified) return 'exists'

  const passwordHash = await hashPassword(password)
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('users')
      .values({
        email: normalised,
        email_verified: true,
        password_hash: passwordHash,
        first_name: 'Admin',
        last_name: '',
        role: 'super_admin',
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst()
    if (inserted) return 'created'

    const account = await findAccount(trx, normalised, { lock: true })
    if (!account) throw new Error(`ensureOwner: no account for ${normalised} after a conflicting insert`)
    if (!account.email_verified) {
      // Whoever signed up with this address never proved it: their password and sessions must not survive.
      await trx
        .updateTable('users')
        .set({ role: 'super_admin', email_verified: true, password_hash: passwordHash, updated_at: clock.now() })
        .where('id', '=', account.id)
        .execute()
      await invalidateUserSessions(trx, account.id)
      return 'claimed'
    }
    if (account.role === 'super_admin') return 'exists'
    await trx
      .updateTable('users')
      .set({ role: 'super_admin', updated_at: clock.now() })
      .where('id', '=', account.id)
      .execute()
    return 'promoted'
  })
}

function findAccount(db: DB, email: string, options: { lock?: boolean } = {}) {
  const query = db.selectFrom('users').select(['id', 'role', 'email_verified']).where(userEmailIs(email))
  return (options.lock ? query.forUpdate() : query).executeTakeFirst()
}
