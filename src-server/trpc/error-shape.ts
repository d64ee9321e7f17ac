// What a tRPC error shows the client. In production a message copied from an unexpected error (a library's or the
// database's own text, e.g. `connect ECONNREFUSED 127.0.0.1:5499`) becomes a generic one; messages we wrote
// (domain errors, zod's field messages, TRPCErrors with a message of their own) are kept. Every error carries the
// request id, also sent as the X-Request-Id header, so a report can be matched with the log.
import type { TRPCError } from '@trpc/server'
import { ZodError } from 'zod'
import { INTERNAL_ERROR_MESSAGE } from '../../src-shared/errors.ts'
import { isDomainError } from '../kernel/errors.ts'

/** True when the error's message is its cause's text rather than one written for the client. */
export function carriesInternalText(error: TRPCError): boolean {
  const cause = error.cause
  if (!cause || isDomainError(cause) || cause instanceof ZodError) return false
  return error.message === cause.message
}

interface Shape {
  message: string
  data: { stack?: string }
}

export function publicErrorShape<S extends Shape>(
  shape: S,
  error: TRPCError,
  options: { hideDetails: boolean; requestId: string | undefined },
): S & { data: { requestId: string | null } } {
  const data = { ...shape.data, requestId: options.requestId ?? null }
  if (!options.hideDetails) return { ...shape, data }
  // tRPC adds the stack whenever the process itself was not started with NODE_ENV=production: never with details hidden.
  delete data.stack
  if (!carriesInternalText(error)) return { ...shape, data }
  return { ...shape, message: INTERNAL_ERROR_MESSAGE, data }
}
