// The session check of plain Fastify routes (tRPC procedures use authedProcedure / staffProcedure instead).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import type { ResolveSession, SessionUser } from './types.ts'

/**
 * The signed-in user of a request, or null after answering 401/403 (the caller then returns).
 * `minRole` makes it a staff check.
 */
export async function requireUser(
  deps: { resolveSession: ResolveSession },
  request: FastifyRequest,
  reply: FastifyReply,
  minRole?: Exclude<Role, 'customer'>,
): Promise<SessionUser | null> {
  const { user } = await deps.resolveSession(request, reply)
  if (!user) {
    await reply.code(401).send({ error: 'Unauthorized', message: 'User not authenticated' })
    return null
  }
  if (minRole && !hasRole(user.role, minRole)) {
    await reply.code(403).send({ error: 'Forbidden', message: 'You do not have permission to do that' })
    return null
  }
  return user
}
