import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireUser } from '../lib/session.ts'

// Pages under this pathless layout need a signed-in user; visitors go to /login and come back after.
// The server checks every call on these pages again: this only spares visitors a page of errors.
export const Route = createFileRoute('/_auth')({
  beforeLoad: async ({ context, location }) => ({ user: await requireUser(context, location.href) }),
  component: Outlet,
})
