// /studio/live: a creator's live sessions (issue 34): schedule for a course they teach, reschedule, cancel, attach the
// recording, read attendance. The server checks the course's instructors on every call.
import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { LiveManager } from '#client/components/live/LiveManager.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/studio/live')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.live.studio.queryOptions()),
  head: () => ({ meta: [{ title: 'Live sessions | SkillForge Studio' }] }),
  pendingComponent: () => <LoadingState label="Loading your live sessions…" />,
  errorComponent: routeError('Could not load your live sessions'),
  component: () => (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6', minW: 0 })}>
      <PageIntro title="Live sessions">Schedule sessions for your learners, and see who joined.</PageIntro>
      <LiveManager />
    </main>
  ),
})
