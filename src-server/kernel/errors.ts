// The one error type domain code throws. A kind says what went wrong; the message is the spec's wording shown to
// the user. trpc/init.ts maps kinds to tRPC codes and the Fastify error handler to HTTP statuses; nothing below
// the routers needs tRPC or Fastify to report a refusal.

export type DomainErrorKind =
  | 'invalid' // the input breaks a rule (400)
  | 'unauthenticated' // no session (401)
  | 'forbidden' // signed in, not allowed (403)
  | 'not_found' // (404)
  | 'conflict' // clashes with the current state: duplicates, in use, already owned (409)
  | 'precondition' // a setting or prior step is missing, e.g. card payments not configured (412)
  | 'rate_limited' // too many attempts (429)
  | 'upstream' // an outside service (Stripe, SMTP, storage) failed (502)
  | 'unavailable' // our own dependency (the database) is down; try again (503)

export class DomainError extends Error {
  override readonly name = 'DomainError'
  /** The input field the refusal is about (e.g. a duplicate name): sent as that field's error, as zod's are. */
  readonly field: string | undefined
  /**
   * The school (its slug) whose own single sign-on is the way in instead (a member it holds to it: decision 0130):
   * sent with the error, so the log-in page offers that school's sign-in button rather than naming it in words.
   */
  readonly ssoSchool: string | undefined
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    options?: { cause?: unknown; field?: string; ssoSchool?: string },
  ) {
    super(message, options)
    this.field = options?.field
    this.ssoSchool = options?.ssoSchool
  }
}

export const HTTP_STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition: 412,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError
}
