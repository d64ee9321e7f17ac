// The typed tRPC client: types come straight from the server's AppRouter (no codegen).
import { QueryClient } from '@tanstack/react-query'
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import type { AppRouter } from '../../src-server/routers/_app.ts'
import { TRPC_MAX_BATCH_SIZE } from '../../src-shared/trpc-limits.ts'

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Client errors (bad input, not found, forbidden) will not get better by retrying.
        retry: (failureCount, error) => failureCount < 2 && !isClientError(error),
      },
    },
  })
}

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: '/trpc',
      maxItems: TRPC_MAX_BATCH_SIZE, // the server refuses bigger batches
      fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
    }),
  ],
})

export function createTrpc(queryClient: QueryClient) {
  return createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient })
}
export type Trpc = ReturnType<typeof createTrpc>

export function isClientError(error: unknown): boolean {
  const status = error instanceof TRPCClientError ? (error.data?.httpStatus as number | undefined) : undefined
  return status !== undefined && status >= 400 && status < 500
}

/** The first field message of a zod error sent by the server, else the error's own message. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof TRPCClientError) {
    const fieldErrors = error.data?.zodError?.fieldErrors as Record<string, string[] | undefined> | undefined
    const first = fieldErrors && Object.values(fieldErrors).find((messages) => messages?.length)?.[0]
    return first ?? error.message ?? fallback
  }
  return fallback
}
