// How the client reads a failed call: a refusal (4xx) carries a message meant for the user; an outage (503)
// is worth trying again; anything else gets the caller's own wording.
import { notFound } from '@tanstack/react-router'
import { TRPCClientError } from '@trpc/client'
import { NO_CONNECTION, OUTAGE } from '#shared/outage.ts'
import { ChunkUnreachableError } from './lazy-route.ts'

function httpStatus(error: unknown): number | undefined {
  return error instanceof TRPCClientError ? (error.data?.httpStatus as number | undefined) : undefined
}

/** An answer the server gave on purpose (bad input, refused, not found, too many attempts): retrying won't help. */
export function isClientError(error: unknown): error is TRPCClientError<never> {
  const status = httpStatus(error)
  return status !== undefined && status >= 400 && status < 500
}

/** The catch-all wording when a call fails for a reason the user cannot act on. */
export const GENERIC_ERROR = 'An error occurred. Please try again.'

/** The server (or its database) is down for a moment: say so and offer to try again. */
export function isServiceUnavailable(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data?.code === 'SERVICE_UNAVAILABLE' || httpStatus(error) === 503)
}

/**
 * The school (slug) whose own single sign-on is the way in instead, when the server refused another for that reason
 * (a member the school holds to it): the log-in page offers that school's sign-in button.
 */
export function ssoSchoolOf(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data?.ssoSchool as string | undefined) : undefined
}

/** The tRPC error code (UNAUTHORIZED, CONFLICT…) when the server sent one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data?.code as string | undefined) : undefined
}

/**
 * A route loader's catch: a record the server does not know (NOT_FOUND) or an id it cannot read (BAD_REQUEST, a
 * mangled link) is the router's not-found page, not an error with Try Again; anything else stays an error.
 */
export function notFoundIfMissing(error: unknown): never {
  if (errorCode(error) === 'NOT_FOUND' || errorCode(error) === 'BAD_REQUEST') throw notFound()
  throw error
}

/**
 * The first field message of a zod error sent by the server, else its first form-level one (a refinement of the whole
 * input, path []: "Choose a lesson or a link, not both"), else the error's own message. The message of a zod error
 * is its issues as JSON, never shown.
 */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (isServiceUnavailable(error)) return OUTAGE.message
  // No answer at all: the browser's own words ("Failed to fetch") mean nothing to a shopper. Nor does a page's code
  // that could not be fetched with the server out of reach (lib/lazy-route.ts).
  if (error instanceof TRPCClientError && !error.data) return NO_CONNECTION
  if (error instanceof ChunkUnreachableError) return NO_CONNECTION
  if (error instanceof TRPCClientError) {
    const zodError = error.data?.zodError as
      | { fieldErrors?: Record<string, string[] | undefined>; formErrors?: string[] }
      | null
      | undefined
    const field = zodError?.fieldErrors && Object.values(zodError.fieldErrors).find((messages) => messages?.length)?.[0]
    const form = zodError?.formErrors?.find(Boolean)
    if (zodError) return field ?? form ?? fallback
    return error.message || fallback
  }
  return fallback
}

/**
 * A passkey's failure (adding one, signing in with one): the browser's own dialog closed or timed out without a
 * passkey (NotAllowedError) says `closed`; otherwise the server's refusal, or `fallback`.
 */
export function passkeyFailure(caught: unknown, closed: string, fallback: string): string {
  return caught instanceof Error && caught.name === 'NotAllowedError' ? closed : errorMessage(caught, fallback)
}

/** The server's message when it refused on purpose or is briefly down; otherwise the caller's fallback. */
export function refusalMessage(error: unknown, fallback: string): string {
  return isClientError(error) || isServiceUnavailable(error) ? errorMessage(error, fallback) : fallback
}

/** TanStack Query's retry rule: a refusal is final; an outage or a dropped connection gets two more tries. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return failureCount < 2 && !isClientError(error)
}

/** 1 s, then 2 s, … at most 8 s between tries. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 8000)
}
