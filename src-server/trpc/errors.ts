// Domain errors become tRPC errors here, once, for every procedure (see publicProcedure in init.ts); so does a
// database that cannot be reached, or file storage failing (SERVICE_UNAVAILABLE, answered 503 with Retry-After by
// trpc/http.ts).
import { TRPCError } from '@trpc/server'
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc'
import { SERVICE_UNAVAILABLE_MESSAGE, STORAGE_UNAVAILABLE_MESSAGE } from '../../src-shared/errors.ts'
import { isDatabaseUnavailable } from '../kernel/db-unavailable.ts'
import { type DomainError, type DomainErrorKind, isDomainError } from '../kernel/errors.ts'
import { isStorageFailure } from '../kernel/storage-failure.ts'

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

/**
 * What a failed procedure answers: a domain error's kind and message; SERVICE_UNAVAILABLE when the database
 * could not be reached, or storage failed, whoever caught and re-threw that; otherwise the error unchanged.
 */
export function toPublicTRPCError(error: unknown): unknown {
  const trpcError = error instanceof TRPCError ? error : null
  const domainError = isDomainError(error) ? error : trpcError && domainErrorOf(trpcError)
  if (domainError) return toTRPCError(domainError)
  if (trpcError?.code !== 'SERVICE_UNAVAILABLE' && isDatabaseUnavailable(error)) {
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: SERVICE_UNAVAILABLE_MESSAGE, cause: error })
  }
  if (trpcError?.code !== 'SERVICE_UNAVAILABLE' && isStorageFailure(error)) {
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: STORAGE_UNAVAILABLE_MESSAGE, cause: error })
  }
  return error
}
