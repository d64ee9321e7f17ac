// What plain Fastify routes (uploads, OAuth, webhooks) get from createServer: the same database, storage,
// settings and session resolution the tRPC procedures use.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import type { DB } from '../db.ts'
import type { FileStorage } from '../storage/storage.ts'
import type { AppConfig, ResolveSession, SessionUser } from '../trpc/context.ts'

export interface HttpDeps {
  db: DB
  storage: FileStorage
  config: AppConfig
  resolveSession: ResolveSession
}

/**
 * The signed-in user of a request, or null after answering 401/403 (the caller then returns).
 * `minRole` makes it a staff check.
 */
export async function requireUser(
  deps: HttpDeps,
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
