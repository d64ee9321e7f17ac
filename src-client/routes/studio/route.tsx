// The creator studio's layout: visitors go to /login and come back; signed-in people who are not creators go to
// /teach (apply to teach). The server checks the creator and each course's ownership on every call regardless.
import { createFileRoute, redirect } from '@tanstack/react-router'
import { StudioLayout } from '#client/components/studio/StudioLayout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { errorCode } from '#client/lib/errors.ts'
import { requireUser } from '#client/lib/session.ts'

export const Route = createFileRoute('/studio')({
  beforeLoad: async ({ context, location, preload }) => {
    await requireUser(context, location.href, { preload })
    await context.queryClient.ensureQueryData(context.trpc.studio.standing.queryOptions()).catch((error: unknown) => {
      if (errorCode(error) === 'FORBIDDEN') throw redirect({ href: '/teach' })
      throw error
    })
  },
  head: () => ({ meta: [{ title: 'Studio | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  pendingComponent: () => <LoadingState label="Opening your studio…" />,
  errorComponent: routeError('Could not open the studio'),
  component: StudioLayout,
})
