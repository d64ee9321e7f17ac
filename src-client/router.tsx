import { createRouter } from '@tanstack/react-router'
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query'
import { NATIVE_FORM_KEY, type NativeFormResult } from '../src-shared/native-form.ts'
import { RouteError } from './components/ui/RouteError.tsx'
import { LoadingState } from './components/ui/states.tsx'
import { type AppTrpcClient, createQueryClient, createTrpc } from './lib/trpc.ts'
import { routeTree } from './routeTree.gen.ts'

export interface AppRouterOptions {
  /** On the server: a tRPC client that calls the procedures in-process for this request. */
  trpcClient?: AppTrpcClient
  /** On the server: the CSP nonce of this response, given to every inline script the router and React write. */
  nonce?: string
  /** On the server: the answer to a form the browser posted itself, rendered into the page (lib/native-form.ts). */
  formResult?: NativeFormResult
}

export function createAppRouter(options: AppRouterOptions = {}) {
  const queryClient = createQueryClient()
  const trpc = createTrpc(queryClient, options.trpcClient)
  if (options.formResult) queryClient.setQueryData(NATIVE_FORM_KEY, options.formResult)
  const router = createRouter({
    routeTree,
    context: { queryClient, trpc },
    defaultPreload: 'intent',
    // Loaders hand data to TanStack Query, which owns caching.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // Every route that loads data gets these unless it names its own: a spinner when its loader is slow, and
    // an error screen (with the outage wording and Try Again) when it fails.
    defaultPendingComponent: () => <LoadingState />,
    defaultErrorComponent: RouteError,
    ...(options.nonce ? { ssr: { nonce: options.nonce } } : {}),
  })
  // The server-rendered page carries the query cache its loaders filled (and the queries that finish while it
  // streams); the client starts from it, so nothing the server fetched is fetched again. It also provides the
  // QueryClientProvider around the app.
  setupRouterSsrQueryIntegration({ router, queryClient })
  return router
}

export type AppRouterInstance = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouterInstance
  }
}
