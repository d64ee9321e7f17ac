// Pathless layout of every staff screen. beforeLoad only redirects visitors to /admin/login: the server checks
// the role on every call regardless.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { AdminLayout } from '#client/components/admin/AdminLayout.tsx'
import { errorCode, isClientError } from '#client/lib/errors.ts'
import { TWO_FACTOR_SETUP_PATH } from '#shared/auth.ts'

export const Route = createFileRoute('/admin/_staff')({
  beforeLoad: async ({ context, location }) => {
    // Refused (signed out, not staff): log in. Anything else (an outage) shows on the error screen instead.
    const me = await context.queryClient
      .fetchQuery({ ...context.trpc.admin.session.me.queryOptions(), staleTime: 30_000 })
      .catch((error: unknown) => {
        // An admin or owner without a second factor while STAFF_2FA=required: set one up first.
        if (errorCode(error) === 'PRECONDITION_FAILED') throw redirect({ href: TWO_FACTOR_SETUP_PATH })
        if (isClientError(error)) return null
        throw error
      })
    if (!me) throw redirect({ to: '/admin/login', search: { redirect: location.href } })
    return { me }
  },
  head: () => ({ meta: [{ title: 'Admin | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  component: StaffLayout,
})

function StaffLayout() {
  const { trpc } = Route.useRouteContext()
  const { data: me } = useSuspenseQuery(trpc.admin.session.me.queryOptions())
  return <AdminLayout me={me} />
}
