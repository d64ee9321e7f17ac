// Where a person a school invited to take a course (decision 0128), signed in with the invited address, accepts it
// and is enrolled. The token is taken out of the address bar as soon as the page runs (history, a copied address) and
// never logged.
import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { AcceptInvite, InvitePage, useAcceptedInvitation } from '#client/components/team/InviteAcceptance.tsx'
import { InviteCard, inviteRouteError, isPlausibleInviteToken } from '#client/components/team/InviteCard.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'

const TITLE = 'Take a course'
const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/_auth/enrolment-invite')({
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ token: search.token ?? '' }),
  // A refused link is the page's to say (components/team/InviteAcceptance.tsx), under its heading, which then takes the
  // dead link's token out of the address as well.
  loader: ({ context, deps: { token } }) =>
    isPlausibleInviteToken(token)
      ? context.queryClient
          .ensureQueryData(context.trpc.learning.enrolmentInvitation.queryOptions({ token }))
          .catch(() => null)
      : null,
  head: () => ({ meta: [{ title: `${TITLE} | SkillForge` }, { name: 'robots', content: 'noindex' }] }),
  pendingComponent: () => (
    <InviteCard title={TITLE}>
      <LoadingState label="Checking your invitation…" />
    </InviteCard>
  ),
  errorComponent: inviteRouteError(TITLE),
  component: EnrolmentInvitePage,
})

function EnrolmentInvitePage() {
  return <InvitePage title={TITLE} searchToken={Route.useSearch().token} accept={(token) => <Accept token={token} />} />
}

function Accept({ token }: { token: string }) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate()
  const { data: invite } = useSuspenseQuery(trpc.learning.enrolmentInvitation.queryOptions({ token }))
  const accepted = useAcceptedInvitation(
    'You are enrolled: the course is in My courses',
    ({ courseId }: { courseId: string }) => navigate({ to: '/learn/$courseId', params: { courseId } }),
  )
  const accept = useMutation(trpc.learning.acceptEnrolmentInvitation.mutationOptions(accepted))
  return (
    <AcceptInvite invite={invite} pending={accept.isPending} onAccept={() => accept.mutate({ token })}>
      {invite.schoolName} invited {invite.email} to take <strong>{invite.courseTitle}</strong>, free of charge.
    </AcceptInvite>
  )
}
