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

/** Input fields a GET would put in the request's address, which proxies and access logs keep whole. */
const PRIVATE_INPUT_FIELDS = [
  'token', // an invitation opened from its e-mail (decision 0129)
  'recipient', // staff finding the mail sent to one person (decision 0154)
  'lookup', // staff finding an order by its customer's address (decision 0154)
  'buyer', // staff finding a customer's service orders (decision 0154)
  'sender', // staff finding one person's support messages (decision 0154)
  'customer', // staff looking up one customer (decision 0155)
  'account', // admins reading one account's entries in the audit log (decision 0155)
] as const

/** A query whose input carries a private field goes as a POST, out of the address (the server allows the override). */
export function carriesPrivateInput(op: Pick<Operation, 'type' | 'input'>): boolean {
  if (op.type !== 'query' || typeof op.input !== 'object' || op.input === null) return false
  const input = op.input as Record<string, unknown>
  return PRIVATE_INPUT_FIELDS.some((field) => input[field] !== undefined)
}

const batchLinkOptions = {
  url: TRPC_BASE,
  maxItems: TRPC_MAX_BATCH_SIZE, // the server refuses bigger batches
  fetch: (url: URL | RequestInfo, init?: RequestInit) => fetch(url, { ...init, credentials: 'same-origin' }),
}

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: carriesPrivateInput,
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
