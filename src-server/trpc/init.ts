// The only place tRPC is initialised. Exports the router factory and the three base procedures.
import { initTRPC, TRPCError } from '@trpc/server'
import { ZodError, z } from 'zod'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import { hasRole, type Role, staffRoleNeedsTwoFactor } from '../../src-shared/roles.ts'
import { coInstructsAny } from '../creators/course-instructors.ts'
import { findCreator } from '../creators/repository.ts'
import { belongsToAnySchool, schoolLeftBy } from '../creators/school-team.ts'
import { isDomainError } from '../kernel/errors.ts'
import type { Context } from './context.ts'
import { publicErrorShape } from './error-shape.ts'
import { toPublicTRPCError } from './errors.ts'
import { refuseNulInput } from './nul-input.ts'

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error, ctx }) {
    // Field errors in zod's flattened shape: the input's, or a domain refusal about one field (a taken name), so a
    // form ties either to its field the same way.
    const zodError =
      error.cause instanceof ZodError
        ? z.flattenError(error.cause)
        : isDomainError(error.cause) && error.cause.field
          ? { formErrors: [], fieldErrors: { [error.cause.field]: [error.cause.message] } }
          : null
    const hideDetails = ctx?.config.hideErrorDetails ?? process.env.NODE_ENV === 'production'
    // A member held to a school's single sign-on: the school whose button the log-in page then offers (only on such
    // a refusal: every other error's data is as before).
    const ssoSchool = isDomainError(error.cause) ? error.cause.ssoSchool : undefined
    const data = { ...shape.data, zodError, ...(ssoSchool ? { ssoSchool } : {}) }
    return publicErrorShape({ ...shape, data }, error, {
      hideDetails,
      requestId: ctx?.req?.id,
    })
  },
})

export const router = t.router
export const createCallerFactory = t.createCallerFactory
export const middleware = t.middleware

/**
 * Every procedure: refuses NUL bytes anywhere in the input; a DomainError thrown below the routers leaves as the
 * matching tRPC error, and a database that cannot be reached as SERVICE_UNAVAILABLE (503).
 */
export const publicProcedure = t.procedure.use(async ({ ctx, next, getRawInput }) => {
  if (ctx.sessionError) throw toPublicTRPCError(ctx.sessionError)
  // An unreadable body (e.g. empty JSON) is the input parser's refusal to make, and ignored without one.
  refuseNulInput(await getRawInput().catch(() => undefined))
  const result = await next()
  if (!result.ok) throw toPublicTRPCError(result.error)
  return result
})

/** Signed-in users only; narrows ctx.user to non-null. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'User not authenticated' })
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } })
})

/** With STAFF_2FA=required: an admin or owner (by role) who has not set up a second factor. */
const staffTwoFactorMissing = (ctx: { config: Context['config']; user: { role: Role; twoFactorEnabled?: boolean } }) =>
  ctx.config.staffTwoFactor === 'required' && staffRoleNeedsTwoFactor(ctx.user.role) && !ctx.user.twoFactorEnabled

/**
 * Staff with at least `minRole` (viewer < editor < admin < super_admin). Checked on the server, always. With
 * STAFF_2FA=required an admin or owner without a second factor is refused (PRECONDITION_FAILED) until they set one up.
 */
export function staffProcedure(minRole: Exclude<Role, 'customer'>) {
  return authedProcedure.use(({ ctx, next }) => {
    if (!hasRole(ctx.user.role, minRole)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to do that' })
    }
    if (staffTwoFactorMissing(ctx)) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: AUTH_MESSAGES.staffTwoFactorRequired })
    }
    return next()
  })
}

/**
 * Signed-in users whose staff role may widen what a procedure lets them do (moderating any course's questions,
 * editing any course's drip schedule), while course members and instructors use it too. The staff 2FA rule applies to
 * that reach as it does to staffProcedure: with STAFF_2FA=required an admin or owner without a second factor acts as
 * a customer (their own courses and enrolments still work), and a refusal only their staff role would have lifted
 * answers PRECONDITION_FAILED with the same message as the staff area.
 */
export const staffReachProcedure = authedProcedure.use(async ({ ctx, next }) => {
  if (!staffTwoFactorMissing(ctx)) return next()
  const result = await next({ ctx: { ...ctx, user: { ...ctx.user, role: 'customer' as Role } } })
  if (!result.ok) {
    const error = toPublicTRPCError(result.error)
    if (error instanceof TRPCError && (error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND')) {
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: AUTH_MESSAGES.staffTwoFactorRequired })
    }
    throw error
  }
  return result
})

/**
 * Creators only (an approved application; a capability of a customer account, never implied by a staff role);
 * adds ctx.creator. Ownership of a course is checked per procedure (creators/course-team.ts).
 */
export const creatorProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const creator = await findCreator(ctx.db, ctx.user.id)
  if (!creator) throw new TRPCError({ code: 'FORBIDDEN', message: 'Only approved creators can use the studio' })
  return next({ ctx: { ...ctx, creator } })
})

/**
 * A course's editors: creators, co-instructors who are not creators (decision 0038: an accepted invitation gives
 * studio access to that course only) and school members (decision 0057: their role decides, per course). ctx.creator is null for a co-instructor; every procedure still asks
 * creators/course-team.ts assertCourseRole for the course at hand (another's course answers NOT_FOUND).
 */
export const courseEditorProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const creator = await findCreator(ctx.db, ctx.user.id)
  if (!creator && !(await coInstructsAny(ctx.db, ctx.user.id)) && !(await belongsToAnySchool(ctx.db, ctx.user.id))) {
    // Someone removed from a school's team (or who left it) is told that, not that they are no creator.
    const left = await schoolLeftBy(ctx.db, ctx.user.id)
    const message = left
      ? `You are no longer on the team of ${left}, so you cannot work on its courses`
      : 'Only approved creators can use the studio'
    throw new TRPCError({ code: 'FORBIDDEN', message })
  }
  return next({ ctx: { ...ctx, creator } })
})
