// The signed-in user as the client sees it (auth.me, and the answer of log-in and profile changes).
import type { Role } from '../../src-shared/roles.ts'
import type { DB } from '../db.ts'

export interface Me {
  id: string
  email: string
  firstName: string
  lastName: string
  avatarUrl: string | null
  role: Role
  emailVerified: boolean
}

export async function loadMe(db: DB, userId: string): Promise<Me | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'avatar_url', 'role', 'email_verified'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!row) return null
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    avatarUrl: row.avatar_url,
    role: row.role,
    emailVerified: row.email_verified,
  }
}
