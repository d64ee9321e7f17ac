// The client's view of the session: `auth.me` (the signed-in user or null). The server is the real check;
// this only decides what to show and where to send people. Reuse these helpers instead of calling auth.me.
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { redirect, useNavigate } from '@tanstack/react-router'
import { AUTH_MESSAGES, safeReturnPath } from '#shared/auth.ts'
import { notify, notifyError } from '../components/ui/toaster.tsx'
import { withoutAddressToken } from './native-form.ts'
import type { Trpc } from './trpc.ts'
import type { RouterOutputs } from './types.ts'
import { useTRPC } from './use-trpc.ts'

type Me = NonNullable<RouterOutputs['auth']['me']>
/** auth.me's answer; log-in answers leave out `isCreator` until the session is read again (setSessionUser does). */
export type SessionUser = Omit<Me, 'isCreator'> & { isCreator?: boolean }

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

/** For `beforeLoad` of the log-in and sign-up pages: a signed-in visitor goes straight back to where they came from
 * (`redirect`, spec §4). */
export async function leaveIfSignedIn({
  context,
  search,
}: {
  context: { queryClient: QueryClient; trpc: Trpc }
  search: { redirect?: string }
}) {
  const user = await context.queryClient.ensureQueryData(sessionQuery(context.trpc)).catch(() => null)
  if (user) throw redirect({ href: safeReturnPath(search.redirect) })
}

/** For `loader` of the log-in and sign-up pages: which sign-in buttons to show comes with the page (never a button
 * that appears late, or fails). */
export const loadSignInProviders = ({ context }: { context: { queryClient: QueryClient; trpc: Trpc } }) =>
  context.queryClient.ensureQueryData(context.trpc.auth.providers.queryOptions()).catch(() => null)

/**
 * For `beforeLoad` of pages that need a signed-in user: a visitor goes to /login, which brings them back to
 * `returnTo` afterwards. `notice` is toasted on the way (not when the page is only being preloaded).
 */
export async function requireUser(
  context: { queryClient: QueryClient; trpc: Trpc },
  returnTo: string,
  options: { notice?: string; preload?: boolean } = {},
): Promise<SessionUser> {
  const user = await context.queryClient.ensureQueryData(sessionQuery(context.trpc))
  if (user) return user
  if (options.notice && !options.preload) notify('error', options.notice)
  throw redirect({ to: '/login', search: { redirect: withoutAddressToken(returnTo) } })
}

/** After log-in or a profile change: store the new user, and refetch answers that depend on who it is. */
export async function setSessionUser(queryClient: QueryClient, trpc: Trpc, user: SessionUser | null) {
  queryClient.setQueryData(sessionQuery(trpc).queryKey, user ? { ...user, isCreator: user.isCreator ?? false } : null)
  await queryClient.invalidateQueries()
}

// The shop and the admin area end the same session; they differ in where they land and what they say.
const SIGN_OUT = {
  shop: { to: '/login', done: null, failed: { title: AUTH_MESSAGES.signOutError, description: undefined } },
  admin: {
    to: '/admin/login',
    done: { title: 'Logged Out', description: 'You have been logged out successfully.' },
    failed: { title: 'Logout failed', description: 'Please try again.' },
  },
} as const

/** Signs out on the server, forgets every cached answer and goes to the area's log-in page. */
export function useSignOut(area: keyof typeof SIGN_OUT = 'shop') {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const { to, done, failed } = SIGN_OUT[area]
  return useMutation(
    trpc.auth.logout.mutationOptions({
      onSuccess: async () => {
        queryClient.clear()
        queryClient.setQueryData(sessionQuery(trpc).queryKey, null)
        if (done) notify('success', done.title, done.description)
        await navigate({ to })
      },
      onError: (error) => notifyError(error, failed.title, failed.description),
    }),
  )
}
