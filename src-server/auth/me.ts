// The signed-in user as the client sees it (auth.me, and the answer of log-in and profile changes).
import type { DB } from '../kernel/db.ts'
import { SESSION_USER_COLUMNS, toSessionUser } from './session-user.ts'
import type { SessionUser } from './types.ts'

export interface Me extends SessionUser {
  emailVerified: boolean
}

export async function loadMe(db: DB, userId: string): Promise<Me | null> {
  const row = await db
    .selectFrom('users')
    .select([...SESSION_USER_COLUMNS, 'email_verified'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!row) return null
  return { ...toSessionUser(row), emailVerified: row.email_verified }
}
