// Who is making a request: the session user and session that auth/ resolves from the cookie. tRPC's context and
// the plain Fastify routes both take these types from here.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Role } from '../../src-shared/roles.ts'

export interface SessionUser {
  id: string
  email: string
  role: Role
  firstName: string
  lastName: string
  avatarUrl: string | null
  /** Whether the account has a second factor on (set by the session check; absent counts as off). */
  twoFactorEnabled?: boolean
}

export interface SessionInfo {
  id: string
  expiresAt: Date
  remember?: boolean
}

/** Resolves the session user from the request (and may refresh the cookie on the reply). */
export type ResolveSession = (
  req: FastifyRequest,
  res: FastifyReply,
) => Promise<{ user: SessionUser | null; session: SessionInfo | null }>
