import { createRouter } from '@tanstack/react-router'
import { ErrorState } from './components/ui/states.tsx'
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
    defaultErrorComponent: ({ error, reset }) => <ErrorState error={error} onRetry={reset} />,
  })
}

export type AppRouterInstance = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouterInstance
  }
}
