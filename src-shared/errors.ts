// Machine-readable codes the UI switches on; the message shown comes with the error.
export const APP_ERROR_CODES = ['VALIDATION', 'NOT_FOUND', 'ALREADY_EXISTS', 'NOT_AUTHENTICATED', 'FORBIDDEN'] as const
export type AppErrorCode = (typeof APP_ERROR_CODES)[number]

/** Field messages of a zod error, as the tRPC error formatter sends them (see src-server/trpc/init.ts). */
export interface FieldErrors {
  formErrors: string[]
  fieldErrors: Record<string, string[] | undefined>
}

/** Shown while our own database is unreachable (tRPC code SERVICE_UNAVAILABLE, HTTP 503 with Retry-After). */
export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.'

/** Production's answer to an unexpected failure; the detail goes to the log under the request id. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong'

/** Any text input holding a NUL byte (never typed by a person; PostgreSQL cannot store it). */
export const NUL_CHARACTER_MESSAGE = 'Text must not contain NUL (\\u0000) characters'
