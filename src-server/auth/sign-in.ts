// The end of a first log-in step (password or OAuth), shared by the shop's and the staff's log-in: an account with a
// second factor gets a pending log-in (its cookie) and no session; any other gets its session. The code step then
// turns the pending log-in into a session (completeTwoFactorSignIn).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import type { AppConfig } from '../kernel/config.ts'
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { startSession } from './login.ts'
import {
  clearPendingLoginCookie,
  createPendingLogin,
  endPendingLogin,
  pendingLoginToken,
  readPendingLogin,
  setPendingLoginCookie,
} from './pending-login.ts'
import { hasTwoFactor, twoFactorSettings, verifySecondFactor } from './two-factor.ts'

export interface SignInDeps {
  db: DB
  config: AppConfig
  req?: FastifyRequest
  res?: FastifyReply
  clientIp: string
}

const originOf = (deps: SignInDeps) => ({ userAgent: deps.req?.headers['user-agent'], clientIp: deps.clientIp })

export async function finishFirstStep(
  deps: SignInDeps,
  userId: string,
  remember: boolean,
): Promise<'signed-in' | 'two-factor'> {
  if (await hasTwoFactor(deps.db, userId)) {
    const { token } = await createPendingLogin(deps.db, userId, remember)
    if (deps.res) setPendingLoginCookie(deps.res, token, deps.config.cookieSecure)
    return 'two-factor'
  }
  await startSession(deps.db, deps.res, deps.config, userId, remember, originOf(deps))
  return 'signed-in'
}

/** The code step: the pending log-in of this browser and a right code give a session; its user id. */
export async function completeTwoFactorSignIn(deps: SignInDeps, code: string): Promise<string> {
  const pending = await readPendingLogin(deps.db, pendingLoginToken(deps.req))
  if (!pending) throw new DomainError('unauthenticated', AUTH_MESSAGES.twoFactorExpired)
  await verifySecondFactor(deps.db, pending.userId, code, twoFactorSettings(deps.config))
  await endPendingLogin(deps.db, pending.id)
  if (deps.res) clearPendingLoginCookie(deps.res, deps.config.cookieSecure)
  await startSession(deps.db, deps.res, deps.config, pending.userId, pending.remember, originOf(deps))
  return pending.userId
}
