// Admin log-in and log-out through the shop's session system. Only staff with a verified address get a session
// here; anyone else gets the same answer as a wrong password, so the form does not reveal which accounts exist.
import { TRPCError } from '@trpc/server'
import { isStaff } from '../../../src-shared/roles.ts'
import { ADMIN_LOGIN_FAILED, adminLoginInput } from '../../../src-shared/schemas/admin.ts'
import { clearSessionCookie } from '../../auth/cookies.ts'
import { authenticateWithPassword, startSession } from '../../auth/service.ts'
import { invalidateSession } from '../../auth/session.ts'
import { RATE_RULES } from '../../security/rate-limit.ts'
import type { Context } from '../../trpc/context.ts'
import { publicProcedure, router, staffProcedure } from '../../trpc/init.ts'

export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Please try again in 15 minutes.'

/**
 * Password guessing on the staff log-in: failures are counted on the shared limiter (Redis when configured,
 * so every node counts them); after 5 in 15 minutes for one e-mail and address, even the right password is
 * refused until the window ends. A limiter outage lets attempts through, as for the shop's log-in.
 */
function adminLoginLimits(ctx: Context, email: string) {
  const key = `admin-login-failures:${ctx.clientIp}:${email}`
  const rule = RATE_RULES.adminLoginFailures
  const log = (error: unknown) => ctx.req?.log.warn({ err: error }, 'rate limiter unavailable; attempt allowed')
  return {
    async assertAllowed() {
      const failures = await ctx.limiter.peek(key).catch((error: unknown) => {
        log(error)
        return 0
      })
      if (failures >= rule.max) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_ATTEMPTS })
    },
    async recordFailure() {
      await ctx.limiter.hit(key, rule.windowMs).catch(log)
    },
  }
}

export const adminSessionRouter = router({
  login: publicProcedure.input(adminLoginInput).mutation(async ({ ctx, input }) => {
    const limits = adminLoginLimits(ctx, input.email.trim().toLowerCase())
    await limits.assertAllowed()
    const user = await authenticateWithPassword(ctx.db, input.email, input.password)
    if (!user || !isStaff(user.role) || !user.emailVerified) {
      await limits.recordFailure()
      throw new TRPCError({ code: 'UNAUTHORIZED', message: ADMIN_LOGIN_FAILED })
    }
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id)
    await startSession(ctx.db, ctx.res, ctx.config, user.id, true)
    return { name: `${user.firstName} ${user.lastName}`.trim() || user.email, role: user.role }
  }),

  logout: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id)
    if (ctx.res) clearSessionCookie(ctx.res, { secure: ctx.config.cookieSecure })
    return { ok: true }
  }),

  /** The signed-in staff member (the client guard asks this; every other procedure checks for itself). */
  me: staffProcedure('viewer').query(({ ctx }) => ({
    id: ctx.user.id,
    email: ctx.user.email,
    name: `${ctx.user.firstName} ${ctx.user.lastName}`.trim() || ctx.user.email,
    role: ctx.user.role,
  })),
})
