// The end of a first log-in step (password or OAuth), shared by the shop's and the staff's log-in: an account with a
// second factor gets a pending log-in (its cookie) and no session; any other gets its session. The code step then
// turns the pending log-in into a session (completeTwoFactorSignIn).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import type { AppConfig } from '../kernel/config.ts'
import { type DB, inTransaction } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { assertNotSuspended } from '../users/suspension.ts'
import { startSession } from './login.ts'
import {
  clearPendingLoginCookie,
  createPendingLogin,
  endPendingLogin,
  pendingLoginToken,
  readPendingLogin,
  setPendingLoginCookie,
} from './pending-login.ts'
import { lockAccountForSignIn } from './sign-in-lock.ts'
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
    // Said now, not after the code step: a suspended account gets no pending log-in. Without a code step,
    // startSession says it (every way in ends there).
    await assertNotSuspended(deps.db, userId)
    const { token } = await createPendingLogin(deps.db, userId, remember)
    if (deps.res) setPendingLoginCookie(deps.res, token, deps.config.cookieSecure)
    return 'two-factor'
  }
  await startSession(deps.db, deps.res, deps.config, userId, remember, originOf(deps))
  return 'signed-in'
}

/** The code step: the pending log-in of this browser and a right code give a session; its user id. */
export async function completeTwoFactorSignIn(deps: SignInDeps, code: string): Promise<string> {
  const token = pendingLoginToken(deps.req)
  const pending = await readPendingLogin(deps.db, token)
  if (!pending) {
    // An expired or ended pending log-in opens nothing; its cookie goes too, rather than ride on every request.
    if (token !== undefined) forgetPendingLogin(deps)
    throw new DomainError('unauthenticated', AUTH_MESSAGES.twoFactorExpired)
  }
  await verifySecondFactor(deps.db, pending.userId, code, twoFactorSettings(deps.config))
  // The pending log-in is used up by the session it gives, under the account's sign-in lock: when a rule ended it
  // meanwhile (a school's required sign-on, decision 0152), or another tab's code used it, there is no session.
  const signedIn = await inTransaction(deps.db, async (trx) => {
    await lockAccountForSignIn(trx, pending.userId)
    if (!(await endPendingLogin(trx, pending.id))) return false
    await startSession(trx, deps.res, deps.config, pending.userId, pending.remember, originOf(deps))
    return true
  })
  forgetPendingLogin(deps) // spent either way
  if (!signedIn) throw new DomainError('unauthenticated', AUTH_MESSAGES.twoFactorExpired)
  return pending.userId
}

function forgetPendingLogin(deps: SignInDeps) {
  if (deps.res) clearPendingLoginCookie(deps.res, deps.config.cookieSecure)
}
