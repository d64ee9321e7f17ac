// The client's view of the session: `auth.me` (the signed-in user or null). The server is the real check;
// this only decides what to show and where to send people. Reuse these helpers instead of calling auth.me.
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { AUTH_MESSAGES } from '../../src-shared/auth.ts'
import { notify } from '../components/ui/toaster.tsx'
import { type Trpc, trpcClient } from './trpc.ts'
import type { RouterOutputs } from './types.ts'
import { useTRPC } from './use-trpc.ts'

export type SessionUser = NonNullable<RouterOutputs['auth']['me']>

/** Query options of the session; loaders use them with ensureQueryData, components with useQuery. */
export function sessionQuery(trpc: Trpc) {
  return trpc.auth.me.queryOptions(undefined, { staleTime: 60_000 })
}

/** The signed-in user (null for a visitor, undefined while loading). */
export function useSession() {
  const trpc = useTRPC()
  const query = useQuery(sessionQuery(trpc))
  return { user: query.data, isLoading: query.isPending }
}

/** After log-in or a profile change: store the new user, and refetch answers that depend on who it is. */
export async function setSessionUser(queryClient: QueryClient, trpc: Trpc, user: SessionUser | null) {
  queryClient.setQueryData(sessionQuery(trpc).queryKey, user)
  await queryClient.invalidateQueries()
}

/** Signs out on the server, forgets cached user data and goes to /login. */
export function useSignOut() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useMutation({
    mutationFn: () => trpcClient.auth.logout.mutate(),
    onSuccess: async () => {
      queryClient.clear()
      queryClient.setQueryData(sessionQuery(trpc).queryKey, null)
      await navigate({ to: '/login' })
    },
    onError: () => notify('error', AUTH_MESSAGES.signOutError),
  })
}
