import { TRPCClientError } from '@trpc/client'

/** True for an answer the server gave on purpose (bad input, refused, too many attempts) rather than a failure. */
export function isServerRefusal(error: unknown): error is TRPCClientError<never> {
  const status = error instanceof TRPCClientError ? (error.data?.httpStatus as number | undefined) : undefined
  return status !== undefined && status >= 400 && status < 500
}
