// The creator studio's layout: visitors go to /login and come back; signed-in people who are not creators go to
// /teach (apply to teach), except to the messages inbox, which a course's co-instructors and school members use. The server checks the creator and each course's ownership on every call regardless.
import { createFileRoute, redirect } from '@tanstack/react-router'
import { StudioLayout } from '#client/components/studio/StudioLayout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { errorCode } from '#client/lib/errors.ts'
import { requireUser } from '#client/lib/session.ts'
import { isTeamPath } from '#client/lib/studio-team.ts'

export const Route = createFileRoute('/studio')({
  beforeLoad: async ({ context, location, preload }) => {
    await requireUser(context, location.href, { preload })
    const creator = await context.queryClient
      .ensureQueryData(context.trpc.studio.standing.queryOptions())
      .then(() => true)
      .catch((error: unknown) => {
        // A co-instructor or school member who is not a creator answers their courses' messages here (issue 34);
        // the inbox lists only the courses they may answer for.
        if (errorCode(error) === 'FORBIDDEN' && isTeamPath(location.pathname)) return false
        if (errorCode(error) === 'FORBIDDEN') throw redirect({ href: '/teach' })
        throw error
      })
    return { studioCreator: creator }
  },
  head: () => ({ meta: [{ title: 'Studio | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  pendingComponent: () => <LoadingState label="Opening your studio…" />,
  errorComponent: routeError('Could not open the studio'),
  component: StudioLayout,
})
