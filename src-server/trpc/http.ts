// The tRPC HTTP handler's error hooks: unexpected failures are logged with the request id; an outage (code
// SERVICE_UNAVAILABLE, set by the base procedure) is logged once as a warning and answered with Retry-After; an outside
// service failing (BAD_GATEWAY) is logged as a warning with what it answered.
import type { TRPCError } from '@trpc/server'
import type { FastifyRequest } from 'fastify'
import { RETRY_AFTER_SECONDS } from '../kernel/db-unavailable.ts'
import { isStorageFailure } from '../kernel/storage-failure.ts'

export const trpcErrorHooks = {
  onError({ path, error, req }: { path?: string; error: TRPCError; req: FastifyRequest }) {
    if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error, path }, 'tRPC procedure failed')
    else if (error.code === 'SERVICE_UNAVAILABLE') {
      req.log.warn({ err: error.cause, path }, isStorageFailure(error) ? 'storage failed' : 'database unavailable')
    }
    // Stripe (or another outside service) failing: the person reads "try again", the log says what it answered.
    else if (error.code === 'BAD_GATEWAY') req.log.warn({ err: error.cause, path }, 'outside service failed')
  },
  responseMeta({ errors }: { errors: TRPCError[] }) {
    const unavailable = errors.some((error) => error.code === 'SERVICE_UNAVAILABLE')
    return unavailable ? { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } } : {}
  },
}
