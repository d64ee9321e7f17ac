// /studio/api: the school's API keys (decision 0060) — the school owner's page, on a plan with the API
// (Enterprise): every key of the school (components/studio/ApiKeysPanel.tsx). The server checks the role and the plan on
// every call and this page shows its answers; a finance member manages their own keys at /member/{schoolId}/api.
// Below the keys, the invitations to take the owner's courses that the API sent (decision 0128).
import { createFileRoute } from '@tanstack/react-router'
import { ApiKeysPanel } from '#client/components/studio/ApiKeysPanel.tsx'
import { EnrolmentInvitesPanel } from '#client/components/studio/EnrolmentInvitesPanel.tsx'
import { StudioPage } from '#client/components/studio/StudioPage.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'

export const Route = createFileRoute('/studio/api')({
  loader: ({ context }) => {
    // The invitations below the keys start loading with them; their section shows its own loading and error states.
    void context.queryClient.prefetchQuery(context.trpc.studio.enrolmentInvitations.queryOptions())
    return context.queryClient.ensureQueryData(context.trpc.apiKeys.list.queryOptions())
  },
  head: () => ({ meta: [{ title: 'API keys | SkillForge Studio' }] }),
  errorComponent: routeError('Could not load your API keys'),
  component: ApiKeysPage,
})

function ApiKeysPage() {
  return (
    <StudioPage
      title="API keys"
      intro={
        <>
          Keys let your own systems read your school’s courses, learners, enrolments, orders and earnings, and enrol
          learners, through the <a href="/developers/api">REST API</a>.
        </>
      }
    >
      <ApiKeysPanel />
      <EnrolmentInvitesPanel />
    </StudioPage>
  )
}
