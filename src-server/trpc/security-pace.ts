// Password and code tries on the security page, the privacy page and the school sign-in consent share the log-in's
// per-account pace: a stolen session cannot guess the password through them faster than through the log-in.
import { TRPCError } from '@trpc/server'
import { allowAttempt, RATE_RULES } from '../security/rate-limit.ts'
import type { Context } from './context.ts'

export async function paceSecurityTries(ctx: Context, userId: string) {
  if (!(await allowAttempt(ctx.limiter, RATE_RULES.login, `security:${userId}`))) {
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'Too many attempts. Please try again later.' })
  }
}
