// Hooks of the admin screens: the tRPC options proxy from the router context, and the signed-in staff member.
import { useSuspenseQuery } from '@tanstack/react-query'
import { useRouteContext } from '@tanstack/react-router'
import { hasRole, type StaffRole } from '../../../src-shared/roles.ts'
import type { RouterOutputs } from '../../lib/types.ts'

export type StaffMe = RouterOutputs['admin']['session']['me']

export function useTRPC() {
  return useRouteContext({ from: '__root__', select: (context) => context.trpc })
}

/** The signed-in staff member and what the role allows in the UI (the server checks every call anyway). */
export function useStaff() {
  const trpc = useTRPC()
  const { data: me } = useSuspenseQuery(trpc.admin.session.me.queryOptions())
  return { me, can: (minRole: StaffRole) => hasRole(me.role, minRole) }
}
