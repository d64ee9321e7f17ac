// /member/{schoolId}/api: a finance member's own API keys for the school they work for (issue 36, decision 0060) —
// keys for the school's orders and earnings (read), shown once at creation, listed (their own only) and revoked. The
// server checks the member's role in the school and the key's holder on every call (flows/school-api-keys.ts); other
// roles are told they hold no keys, and a school the person is not on says so.
import { createFileRoute, Link } from '@tanstack/react-router'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { ApiKeysPanel } from '#client/components/studio/ApiKeysPanel.tsx'
import { NotOnTeam, useSchoolMembership } from '#client/components/team/school-membership.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/_auth/member/$schoolId_/api')({
  loader: async ({ context, params }) => {
    const memberships = await context.queryClient.ensureQueryData(context.trpc.schools.memberships.queryOptions())
    const membership = memberships.find((m) => m.schoolId === params.schoolId)
    if (membership?.role === 'finance') {
      // The same input as the panel's query (a member names the school), so the panel finds it loaded.
      await context.queryClient.ensureQueryData(context.trpc.apiKeys.list.queryOptions({ schoolId: params.schoolId }))
    }
  },
  head: () => ({ meta: [{ title: 'API keys | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  errorComponent: routeError('Could not load your API keys'),
  component: MemberApiKeysPage,
})

function MemberApiKeysPage() {
  const { schoolId } = Route.useParams()
  const membership = useSchoolMembership(schoolId)
  return (
    <Container className={css({ py: '10' })}>
      <main className={css({ display: 'flex', flexDir: 'column', gap: '6', maxW: '3xl', minW: 0 })}>
        <PageIntro title="API keys">
          {membership ? (
            <>
              Your keys for{' '}
              <Link to="/member/$schoolId" params={{ schoolId }} className={css({ textDecoration: 'underline' })}>
                {membership.name}
              </Link>
              : your own systems read the school’s orders and earnings through the{' '}
              <a href="/developers/api">REST API</a>. Only you see and revoke them.
            </>
          ) : null}
        </PageIntro>
        {!membership ? (
          <NotOnTeam />
        ) : membership.role === 'finance' ? (
          <ApiKeysPanel schoolId={schoolId} />
        ) : (
          <EmptyState title="Your role holds no API keys">
            <p>In this school, API keys are for its owner and its finance members.</p>
          </EmptyState>
        )}
      </main>
    </Container>
  )
}
