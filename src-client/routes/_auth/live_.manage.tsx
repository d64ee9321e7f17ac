// /live/manage: live sessions for staff (issue 34): staff editors schedule sessions for any course or for all Premium
// members; an instructor sees their courses' sessions here as in /studio/live. The server checks every call.
import { createFileRoute } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { LiveManager } from '#client/components/live/LiveManager.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/live_/manage')({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.live.studio.queryOptions()),
  head: () => ({ meta: [{ title: 'Manage live sessions | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  pendingComponent: () => <LoadingState label="Loading live sessions…" />,
  errorComponent: routeError('Could not load live sessions'),
  component: () => (
    <main>
      <PageIntro title="Manage live sessions" />
      <Container className={css({ py: '8' })}>
        <LiveManager />
      </Container>
    </main>
  ),
})
