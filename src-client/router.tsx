import { createRouter } from '@tanstack/react-router'
import { RouteError } from './components/ui/RouteError.tsx'
import { LoadingState } from './components/ui/states.tsx'
import { createQueryClient, createTrpc } from './lib/trpc.ts'
import { routeTree } from './routeTree.gen.ts'

export function createAppRouter() {
  const queryClient = createQueryClient()
  const trpc = createTrpc(queryClient)
  return createRouter({
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
  })
}

export type AppRouterInstance = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouterInstance
  }
}
