// The rate limits procedures enforce before they do anything: a rule per key (a client address, an account, an address
// mailed). Password and code tries on the security page, the privacy page and the school sign-in consent share the
// log-in's per-account pace: a stolen session cannot guess the password through them faster than through the log-in.
import { TRPCError } from '@trpc/server'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import { allowAttempt, RATE_RULES, type RateRule } from '../security/rate-limit.ts'
import type { Context } from './context.ts'

/** Logged, and the attempt allowed: a limiter that is down does not lock everyone out. */
export const limiterDown = (ctx: Context) => (error: unknown) =>
  ctx.log.warn({ err: error }, 'rate limiter unavailable; attempt allowed')

/** Refuses with "Too many attempts" once `key` has used up `rule`. */
export async function enforceLimit(ctx: Context, rule: RateRule, key: string) {
  if (!(await allowAttempt(ctx.limiter, rule, key, limiterDown(ctx)))) {
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: AUTH_MESSAGES.tooManyAttempts })
  }
}

export async function paceSecurityTries(ctx: Context, userId: string) {
  if (!(await allowAttempt(ctx.limiter, RATE_RULES.login, `security:${userId}`))) {
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'Too many attempts. Please try again later.' })
  }
}
