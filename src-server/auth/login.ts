// Password sign-in and session start, shared by the shop's log-in and the admin log-in.
import type { FastifyReply } from 'fastify'
import type { Role } from '../../src-shared/roles.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { userEmailIs } from '../users/email.ts'
import { setSessionCookie } from './cookies.ts'
import { dummyPasswordHash, verifyPassword } from './password.ts'
import { createSession } from './session.ts'

export interface AuthenticatedUser {
  id: string
  email: string
  role: Role
  emailVerified: boolean
  firstName: string
  lastName: string
}

/**
 * The user whose e-mail (any case) and password match, else null. An unknown e-mail costs the same argon2
 * verification as a wrong password, so timing does not reveal which accounts exist.
 */
export async function authenticateWithPassword(
  db: DB,
  email: string,
  password: string,
): Promise<AuthenticatedUser | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'email_verified', 'first_name', 'last_name', 'password_hash'])
    .where(userEmailIs(email))
    .executeTakeFirst()
  const valid = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password)
  if (!user?.password_hash || !valid) return null
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    emailVerified: user.email_verified,
    firstName: user.first_name,
    lastName: user.last_name,
  }
}

/** Creates a session for the user and sets its cookie on the reply. */
export async function startSession(
  db: DB,
  reply: FastifyReply | undefined,
  config: AppConfig,
  userId: string,
  remember: boolean,
) {
  const created = await createSession(db, userId, remember)
  if (reply) setSessionCookie(reply, created.token, created.session, { secure: config.cookieSecure })
  return created
}
