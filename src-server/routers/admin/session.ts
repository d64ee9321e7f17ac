// Admin log-in and log-out through the shop's session system. Only staff with a verified address get a session
// here; anyone else gets the same answer as a wrong password, so the form does not reveal which accounts exist.
import { TRPCError } from '@trpc/server'
import { fullName } from '../../../src-shared/names.ts'
import { isStaff, staffRoleNeedsTwoFactor } from '../../../src-shared/roles.ts'
import { ADMIN_LOGIN_FAILED, adminLoginInput } from '../../../src-shared/schemas/admin.ts'
import { clearSessionCookie } from '../../auth/cookies.ts'
import { authenticateWithPassword } from '../../auth/login.ts'
import { invalidateSession } from '../../auth/session.ts'
import { finishFirstStep } from '../../auth/sign-in.ts'
import { type AttemptGuard, loginFailuresFromAddress, reserveAttempt } from '../../security/attempts.ts'
import { RATE_RULES } from '../../security/rate-limit.ts'
import { queueLoginLockedNotice } from '../../team/login-notice.ts'
import type { Context } from '../../trpc/context.ts'
import { publicProcedure, router, staffProcedure } from '../../trpc/init.ts'

export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Please try again in 15 minutes.'
export const STAFF_SIGN_IN_ELSEWHERE = 'Staff sign in on the platform’s own address, not on a school’s domain.'

/**
 * Password guessing on the staff log-in: failures are counted on the shared limiter (Redis when configured, so
 * every node counts them) per e-mail and address, per account from any address, and per address across
 * accounts. Each attempt is reserved before its hash and given back when it succeeds, so the concurrent calls
 * of one batch all count. Once a rule is full even the right password is refused until its window ends.
 */
function adminLoginGuards(clientIp: string, email: string) {
  const perAccount: AttemptGuard = {
    rule: RATE_RULES.adminLoginFailuresPerAccount,
    key: `admin-login-account:${email}`,
  }
  const guards: AttemptGuard[] = [
    { rule: RATE_RULES.adminLoginFailures, key: `admin-login-failures:${clientIp}:${email}` },
    perAccount,
    loginFailuresFromAddress(clientIp),
  ]
  return { guards, perAccount }
}

/** Mails the account's owner once per window, when its failures reach the per-account cap. */
async function noticeLockout(ctx: Context, email: string, failures: number) {
  const rule = RATE_RULES.adminLoginFailuresPerAccount
  if (failures < rule.max) return
  const { count } = await ctx.limiter.hit(`admin-login-locked-notice:${email}`, rule.windowMs)
  if (count !== 1) return
  await queueLoginLockedNotice(ctx.db, email, {
    failures,
    minutes: Math.round(rule.windowMs / 60_000),
    publicUrl: ctx.config.publicUrl,
  })
}

export const adminSessionRouter = router({
  login: publicProcedure.input(adminLoginInput).mutation(async ({ ctx, input }) => {
    // Under a school's own domain (its pages send /admin to the platform's host): no staff password is taken there.
    if (ctx.publicUrl !== ctx.config.publicUrl) {
      throw new TRPCError({ code: 'FORBIDDEN', message: STAFF_SIGN_IN_ELSEWHERE })
    }
    const email = input.email.trim().toLowerCase()
    const { guards, perAccount } = adminLoginGuards(ctx.clientIp, email)
    const log = (error: unknown) => ctx.log.warn({ err: error }, 'rate limiter unavailable; attempt allowed')
    const attempt = await reserveAttempt(ctx.limiter, guards, TOO_MANY_ATTEMPTS, log)
    const user = await authenticateWithPassword(ctx.db, input.email, input.password)
    if (!user || !isStaff(user.role) || !user.emailVerified) {
      await noticeLockout(ctx, email, attempt.counts[guards.indexOf(perAccount)] ?? 0).catch((error: unknown) =>
        ctx.log.warn({ err: error }, 'admin log-in lock-out notice not queued'),
      )
      throw new TRPCError({ code: 'UNAUTHORIZED', message: ADMIN_LOGIN_FAILED })
    }
    await attempt.release()
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id)
    const step = await finishFirstStep(ctx, user.id, true)
    return {
      name: fullName(user.firstName, user.lastName) || user.email,
      role: user.role,
      /** The code step comes next (auth.verifyTwoFactor); there is no session yet. */
      twoFactor: step === 'two-factor',
      /** Signed in, but STAFF_2FA=required: set up a second factor before any staff screen. */
      mustEnrolTwoFactor:
        step === 'signed-in' && ctx.config.staffTwoFactor === 'required' && staffRoleNeedsTwoFactor(user.role),
    }
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
    name: fullName(ctx.user.firstName, ctx.user.lastName) || ctx.user.email,
    role: ctx.user.role,
  })),
})
