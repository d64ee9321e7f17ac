import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { sessionQuery } from '../lib/session.ts'

// Pages under this pathless layout need a signed-in user; visitors go to /login and come back after.
// The server checks every call on these pages again: this only spares visitors a page of errors.
export const Route = createFileRoute('/_auth')({
  beforeLoad: async ({ context, location }) => {
    const user = await context.queryClient.ensureQueryData(sessionQuery(context.trpc))
    if (!user) throw redirect({ to: '/login', search: { redirect: location.href } })
    return { user }
  },
  component: Outlet,
})
