// Where an invited team member, signed in with the invited address, accepts an invitation to a school (decision 0057).
// The token is taken out of the address bar as soon as the page runs (history, a copied address) and never logged.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { AcceptInvite, IncompleteInviteLink } from '#client/components/team/InviteAcceptance.tsx'
import { InviteCard } from '#client/components/team/InviteCard.tsx'
import { RouteError } from '#client/components/ui/RouteError.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTokenFromAddress } from '#client/lib/native-form.ts'

const ROLE_NAMES = { instructor: 'instructor', finance: 'finance', support: 'support' } as const

const isPlausibleToken = (token: string) => token.length >= 10

const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/_auth/school-invite')({
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ token: search.token ?? '' }),
  // A refused link is not a failed page: rendered on the server, the refusal would reach the browser without its
  // message, so the page asks again in the browser and shows the server's own words under its heading.
  loader: ({ context, deps: { token } }) =>
    isPlausibleToken(token)
      ? context.queryClient.ensureQueryData(context.trpc.schools.invitation.queryOptions({ token })).catch(() => null)
      : null,
  head: () => ({ meta: [{ title: 'Join a school’s team | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  // Under the page's heading: a link whose invitation was used, cancelled or never existed still says where it is.
  errorComponent: ({ error }) => (
    <InviteCard title="Join a school’s team">
      <RouteError error={error} title="Invitation unavailable" />
    </InviteCard>
  ),
  component: SchoolInvitePage,
})

function SchoolInvitePage() {
  const token = useTokenFromAddress(Route.useSearch().token) ?? ''
  return (
    <InviteCard title="Join a school’s team">
      {isPlausibleToken(token) ? <Accept token={token} /> : <IncompleteInviteLink />}
    </InviteCard>
  )
}

function Accept({ token }: { token: string }) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { data: invite } = useSuspenseQuery(trpc.schools.invitation.queryOptions({ token }))
  const accept = useMutation(
    trpc.schools.acceptInvitation.mutationOptions({
      onSuccess: async ({ schoolId }) => {
        await queryClient.invalidateQueries()
        notify('success', 'You joined the school’s team')
        await navigate({ to: '/member/$schoolId', params: { schoolId } })
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <AcceptInvite invite={invite} pending={accept.isPending} onAccept={() => accept.mutate({ token })}>
      {invite.invitedBy ?? 'A creator'} invited {invite.email} to join <strong>{invite.schoolName}</strong> as{' '}
      <strong>{ROLE_NAMES[invite.role]}</strong>.
    </AcceptInvite>
  )
}
