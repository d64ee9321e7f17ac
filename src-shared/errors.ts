// Machine-readable codes the UI switches on; the message shown comes with the error.
export const APP_ERROR_CODES = ['VALIDATION', 'NOT_FOUND', 'ALREADY_EXISTS', 'NOT_AUTHENTICATED', 'FORBIDDEN'] as const
export type AppErrorCode = (typeof APP_ERROR_CODES)[number]

/** Field messages of a zod error, as the tRPC error formatter sends them (see src-server/trpc/init.ts). */
export interface FieldErrors {
  formErrors: string[]
  fieldErrors: Record<string, string[] | undefined>
}
