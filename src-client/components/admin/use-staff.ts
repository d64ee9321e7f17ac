// Hooks of the admin screens: the signed-in staff member (and the shared tRPC hook, re-exported).
import { useSuspenseQuery } from '@tanstack/react-query'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { hasRole, type StaffRole } from '#shared/roles.ts'

export type StaffMe = RouterOutputs['admin']['session']['me']

export { useTRPC }

/** The signed-in staff member and what the role allows in the UI (the server checks every call anyway). */
export function useStaff() {
  const trpc = useTRPC()
  const { data: me } = useSuspenseQuery(trpc.admin.session.me.queryOptions())
  return { me, can: (minRole: StaffRole) => hasRole(me.role, minRole) }
}
