// Where an invited co-instructor, signed in with the invited address, accepts an invitation to co-teach a course.
// The token is taken out of the address bar as soon as the page runs (history, a copied address) and never logged.
import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { AcceptInvite, InvitePage, useAcceptedInvitation } from '#client/components/team/InviteAcceptance.tsx'
import { InviteCard, inviteRouteError, isPlausibleInviteToken } from '#client/components/team/InviteCard.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'

const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/_auth/course-invite')({
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ token: search.token ?? '' }),
  // A refused link is the page's to say (components/team/InviteAcceptance.tsx), under its heading, which then takes the
  // dead link's token out of the address as well.
  loader: ({ context, deps: { token } }) =>
    isPlausibleInviteToken(token)
      ? context.queryClient
          .ensureQueryData(context.trpc.studioPublishing.invitation.queryOptions({ token }))
          .catch(() => null)
      : null,
  head: () => ({ meta: [{ title: 'Co-teach a course | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  pendingComponent: () => (
    <InviteCard title="Co-teach a course">
      <LoadingState label="Checking your invitation…" />
    </InviteCard>
  ),
  errorComponent: inviteRouteError('Co-teach a course'),
  component: CourseInvitePage,
})

function CourseInvitePage() {
  return (
    <InvitePage
      title="Co-teach a course"
      searchToken={Route.useSearch().token}
      accept={(token) => <Accept token={token} />}
    />
  )
}

function Accept({ token }: { token: string }) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate()
  const { data: invite } = useSuspenseQuery(trpc.studioPublishing.invitation.queryOptions({ token }))
  const accepted = useAcceptedInvitation('You are a co-instructor now', ({ courseId }: { courseId: string }) =>
    navigate({ to: '/studio/courses/$courseId/publish', params: { courseId } }),
  )
  const accept = useMutation(trpc.studioPublishing.acceptInvitation.mutationOptions(accepted))
  return (
    <AcceptInvite invite={invite} pending={accept.isPending} onAccept={() => accept.mutate({ token })}>
      {invite.invitedBy ?? 'A creator'} invited {invite.email} to co-teach <strong>{invite.courseTitle}</strong>.
    </AcceptInvite>
  )
}
