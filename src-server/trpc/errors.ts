// Domain errors become tRPC errors here, once, for every procedure (see publicProcedure in init.ts).
import { TRPCError } from '@trpc/server'
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc'
import { type DomainError, type DomainErrorKind, isDomainError } from '../errors.ts'

const TRPC_CODE_BY_KIND: Record<DomainErrorKind, TRPC_ERROR_CODE_KEY> = {
  invalid: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  precondition: 'PRECONDITION_FAILED',
  rate_limited: 'TOO_MANY_REQUESTS',
  upstream: 'BAD_GATEWAY',
  unavailable: 'SERVICE_UNAVAILABLE',
}

export function toTRPCError(error: DomainError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_BY_KIND[error.kind], message: error.message, cause: error })
}

/** The domain error a failed procedure threw, if that is what it threw (tRPC wraps unknown errors). */
export function domainErrorOf(error: TRPCError): DomainError | null {
  return isDomainError(error.cause) ? error.cause : null
}
