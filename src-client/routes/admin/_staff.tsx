// Pathless layout of every staff screen. beforeLoad only redirects visitors to /admin/login: the server checks
// the role on every call regardless.
import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, redirect } from '@tanstack/react-router'
import { AdminLayout } from '../../components/admin/AdminLayout.tsx'

export const Route = createFileRoute('/admin/_staff')({
  beforeLoad: async ({ context, location }) => {
    const me = await context.queryClient
      .fetchQuery({ ...context.trpc.admin.session.me.queryOptions(), staleTime: 30_000 })
      .catch(() => null)
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
