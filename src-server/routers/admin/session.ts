// Admin log-in and log-out through the shop's session system. Only staff get a session here; anyone else gets
// the same answer as a wrong password, so the form does not reveal which accounts exist.
import { TRPCError } from '@trpc/server'
import { isStaff } from '../../../src-shared/roles.ts'
import { ADMIN_LOGIN_FAILED, adminLoginInput } from '../../../src-shared/schemas/admin.ts'
import { adminLoginThrottle, TOO_MANY_ATTEMPTS } from '../../admin/login-throttle.ts'
import { clearSessionCookie } from '../../auth/cookies.ts'
import { authenticateWithPassword, startSession } from '../../auth/service.ts'
import { invalidateSession } from '../../auth/session.ts'
import { publicProcedure, router, staffProcedure } from '../../trpc/init.ts'

export const adminSessionRouter = router({
  login: publicProcedure.input(adminLoginInput).mutation(async ({ ctx, input }) => {
    const key = `${input.email.trim().toLowerCase()}|${ctx.req?.ip ?? 'local'}`
    if (adminLoginThrottle.isBlocked(key))
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_ATTEMPTS })
    const user = await authenticateWithPassword(ctx.db, input.email, input.password)
    if (!user || !isStaff(user.role)) {
      adminLoginThrottle.fail(key)
      throw new TRPCError({ code: 'UNAUTHORIZED', message: ADMIN_LOGIN_FAILED })
    }
    adminLoginThrottle.succeed(key)
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
