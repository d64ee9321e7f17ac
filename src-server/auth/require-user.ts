// The session check of plain Fastify routes (tRPC procedures use authedProcedure / staffProcedure instead).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import { hasRole, type Role, staffRoleNeedsTwoFactor } from '../../src-shared/roles.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { ResolveSession, SessionUser } from './types.ts'

/**
 * The signed-in user of a request, or null after answering 401/403 (the caller then returns).
 * `minRole` makes it a staff check.
 */
export async function requireUser(
  deps: { resolveSession: ResolveSession; config?: Pick<AppConfig, 'staffTwoFactor'> },
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
  if (minRole && deps.config?.staffTwoFactor === 'required' && staffRoleNeedsTwoFactor(user.role)) {
    if (!user.twoFactorEnabled) {
      await reply.code(412).send({ error: 'Precondition Failed', message: AUTH_MESSAGES.staffTwoFactorRequired })
      return null
    }
  }
  return user
}

/**
 * The user as a reach beyond their own goes (any course's lessons, a reported conversation's files): with
 * STAFF_2FA=required an admin or owner without a second factor acts as a customer there (decision 0052), as
 * staffReachProcedure does for tRPC; anyone else is unchanged.
 */
export function withStaffReach<U extends { role: Role; twoFactorEnabled?: boolean }>(
  config: Pick<AppConfig, 'staffTwoFactor'> | undefined,
  user: U,
): U {
  const missing = config?.staffTwoFactor === 'required' && staffRoleNeedsTwoFactor(user.role) && !user.twoFactorEnabled
  return missing ? { ...user, role: 'customer' } : user
}
