// The first owner (super_admin): created from ADMIN_EMAIL/ADMIN_PASSWORD at start-up, or by `npm run admin:create`.
import { hashPassword } from '../auth/password.ts'
import type { DB } from '../db.ts'
import { userEmailIs } from '../users/email.ts'

export type EnsureOwnerResult = 'created' | 'promoted' | 'exists'

/**
 * Makes sure an owner account exists for this e-mail. An absent account is created with the password; an
 * existing account is promoted to owner but its password is left alone (a restart must not reset it).
 */
export async function ensureOwner(db: DB, email: string, password: string): Promise<EnsureOwnerResult> {
  const normalised = email.trim().toLowerCase()
  const existing = await db.selectFrom('users').select(['id', 'role']).where(userEmailIs(normalised)).executeTakeFirst()
  if (existing?.role === 'super_admin') return 'exists'
  if (existing) {
    await db
      .updateTable('users')
      .set({ role: 'super_admin', updated_at: new Date() })
      .where('id', '=', existing.id)
      .execute()
    return 'promoted'
  }
  await db
    .insertInto('users')
    .values({
      email: normalised,
      email_verified: true,
      password_hash: await hashPassword(password),
      first_name: 'Admin',
      last_name: '',
      role: 'super_admin',
    })
    .execute()
  return 'created'
}
