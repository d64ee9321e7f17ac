// Where an invited team member, signed in with the invited address, accepts an invitation to a school (decision 0057).
// The token is taken out of the address bar as soon as the page runs (history, a copied address) and never logged.
// Joining a school that requires its own sign-in for this address ends this session (decision 0144): the page then
// goes on to that sign-in, which comes back to the member's page.
import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { AcceptInvite, InvitePage, useAcceptedInvitation } from '#client/components/team/InviteAcceptance.tsx'
import { inviteRouteError, isPlausibleInviteToken } from '#client/components/team/InviteCard.tsx'
import { notify } from '#client/components/ui/toaster.tsx'

const ROLE_NAMES = { instructor: 'instructor', finance: 'finance', support: 'support' } as const

const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/_auth/school-invite')({
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ token: search.token ?? '' }),
  // A refused link is not a failed page: rendered on the server, the refusal would reach the browser without its
  // message, so the page asks again in the browser and shows the server's own words under its heading.
  loader: ({ context, deps: { token } }) =>
    isPlausibleInviteToken(token)
      ? context.queryClient.ensureQueryData(context.trpc.schools.invitation.queryOptions({ token })).catch(() => null)
      : null,
  head: () => ({ meta: [{ title: 'Join a school’s team | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  // Under the page's heading: a link whose invitation was used, cancelled or never existed still says where it is.
  errorComponent: inviteRouteError('Join a school’s team'),
  component: SchoolInvitePage,
})

function SchoolInvitePage() {
  return (
    <InvitePage
      title="Join a school’s team"
      searchToken={Route.useSearch().token}
      accept={(token) => <Accept token={token} />}
    />
  )
}

function Accept({ token }: { token: string }) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate()
  const { data: invite } = useSuspenseQuery(trpc.schools.invitation.queryOptions({ token }))
  const accepted = useAcceptedInvitation('You joined the school’s team', ({ schoolId }: { schoolId: string }) =>
    navigate({ to: '/member/$schoolId', params: { schoolId } }),
  )
  const accept = useMutation(
    trpc.schools.acceptInvitation.mutationOptions({
      ...accepted,
      onSuccess: (result) => {
        if (!result.signInWith) return accepted.onSuccess(result)
        // Held to the school's sign-in by joining, this session ended with the join: refetching now would only meet
        // "signed out". The browser goes straight on to the school's sign-in (a full page load: the server runs it),
        // which comes back to the member's page.
        const { name, slug } = result.signInWith
        notify('success', 'You joined the school’s team', `${name} requires its team to sign in with its own sign-in.`)
        window.location.assign(
          `/auth/sso/${encodeURIComponent(slug)}?redirect=${encodeURIComponent(`/member/${result.schoolId}`)}`,
        )
      },
    }),
  )
  return (
    <AcceptInvite invite={invite} pending={accept.isPending} onAccept={() => accept.mutate({ token })}>
      {invite.invitedBy ?? 'A creator'} invited {invite.email} to join <strong>{invite.schoolName}</strong> as{' '}
      <strong>{ROLE_NAMES[invite.role]}</strong>.
    </AcceptInvite>
  )
}
