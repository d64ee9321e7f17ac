// Hooks of the admin screens: the signed-in staff member, the refresh after a change (and the shared tRPC hook,
// re-exported).
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { hasRole, type StaffRole } from '#shared/roles.ts'
import { notify } from '../ui/toaster.tsx'

export type StaffMe = RouterOutputs['admin']['session']['me']

export { useTRPC }

/** The signed-in staff member and what the role allows in the UI (the server checks every call anyway). */
export function useStaff() {
  const trpc = useTRPC()
  const { data: me } = useSuspenseQuery(trpc.admin.session.me.queryOptions())
  return { me, can: (minRole: StaffRole) => hasRole(me.role, minRole) }
}

/** After a change: every admin query (lists, counts, the dashboard) is loaded again. */
export function useRefreshAdmin() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
}

/** An admin dialog's save that went through (its mutation's onSuccess): the lists refreshed, `message`, then closed. */
export function useSavedThenClose(onClose: () => void) {
  const refresh = useRefreshAdmin()
  return (message: string) => async () => {
    await refresh()
    notify('success', message)
    onClose()
  }
}
