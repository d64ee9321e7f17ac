// The typed tRPC client: types come straight from the server's AppRouter (no codegen).
import { QueryClient } from '@tanstack/react-query'
import { createTRPCClient, httpBatchLink, type Operation, splitLink, type TRPCClient } from '@trpc/client'
import type { inferRouterInputs } from '@trpc/server'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import type { AppRouter } from '#server/routers/_app.ts'
import { TRPC_MAX_BATCH_SIZE } from '#shared/trpc-limits.ts'
import { retryDelay, shouldRetryQuery } from './errors.ts'

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Refusals (bad input, not found, forbidden) will not get better by retrying; an outage may, in the browser.
      // The server renders once: an outage there is answered 503 at once, and the browser's tries follow.
      queries: { staleTime: 30_000, retry: typeof window === 'undefined' ? false : shouldRetryQuery, retryDelay },
    },
  })
}

/** Where the server answers tRPC (src-server/server.ts registers the adapter there). */
const TRPC_BASE = '/trpc'

type RouterInputs = inferRouterInputs<AppRouter>

/**
 * The address of one procedure, for a request made outside the tRPC client (a keepalive write as the page closes).
 * Named by its router and procedure, so a renamed or moved procedure fails the type check, not a request.
 */
export function procedureUrl<
  Scope extends keyof RouterInputs & string,
  Name extends keyof RouterInputs[Scope] & string,
>(scope: Scope, name: Name): `${typeof TRPC_BASE}/${Scope}.${Name}` {
  return `${TRPC_BASE}/${scope}.${name}`
}

/**
 * A query whose input carries a token (an invitation opened from its e-mail) goes as a POST: a GET would put the
 * token in the request's address, which proxies and access logs keep whole (the server allows the override).
 */
export function carriesToken(op: Pick<Operation, 'type' | 'input'>): boolean {
  return op.type === 'query' && typeof op.input === 'object' && op.input !== null && 'token' in op.input
}

const batchLinkOptions = {
  url: TRPC_BASE,
  maxItems: TRPC_MAX_BATCH_SIZE, // the server refuses bigger batches
  fetch: (url: URL | RequestInfo, init?: RequestInit) => fetch(url, { ...init, credentials: 'same-origin' }),
}

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: carriesToken,
      true: httpBatchLink({ ...batchLinkOptions, methodOverride: 'POST' }),
      false: httpBatchLink(batchLinkOptions),
    }),
  ],
})

/** The server renderer passes its own client (calling the procedures in-process with the visitor's request). */
export function createTrpc(queryClient: QueryClient, client: TRPCClient<AppRouter> = trpcClient) {
  return createTRPCOptionsProxy<AppRouter>({ client, queryClient })
}
export type AppTrpcClient = TRPCClient<AppRouter>
export type Trpc = ReturnType<typeof createTrpc>
