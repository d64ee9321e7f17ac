// The only place tRPC is initialised. Exports the router factory and the three base procedures.
import { initTRPC, TRPCError } from '@trpc/server'
import { ZodError, z } from 'zod'
import { hasRole, type Role } from '../../src-shared/roles.ts'
import type { Context } from './context.ts'
import { domainErrorOf, toTRPCError } from './errors.ts'

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? z.flattenError(error.cause) : null
    return { ...shape, data: { ...shape.data, zodError } }
  },
})

export const router = t.router
export const createCallerFactory = t.createCallerFactory
export const middleware = t.middleware

/** Every procedure: a DomainError thrown below the routers leaves as the matching tRPC error. */
export const publicProcedure = t.procedure.use(async ({ next }) => {
  const result = await next()
  const domainError = result.ok ? null : domainErrorOf(result.error)
  if (domainError) throw toTRPCError(domainError)
  return result
})

/** Signed-in users only; narrows ctx.user to non-null. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'User not authenticated' })
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } })
})

/** Staff with at least `minRole` (viewer < editor < admin < super_admin). Checked on the server, always. */
export function staffProcedure(minRole: Exclude<Role, 'customer'>) {
  return authedProcedure.use(({ ctx, next }) => {
    if (!hasRole(ctx.user.role, minRole)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have permission to do that' })
    }
    return next({ ctx })
  })
}
