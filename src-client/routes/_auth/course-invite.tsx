// Where an invited co-instructor, signed in with the invited address, accepts an invitation to co-teach a course.
// The token is taken out of the address bar as soon as the page runs (history, a copied address) and never logged.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { AcceptInvite, IncompleteInviteLink } from '#client/components/team/InviteAcceptance.tsx'
import { InviteCard } from '#client/components/team/InviteCard.tsx'
import { RouteError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTokenFromAddress } from '#client/lib/native-form.ts'

const isPlausibleToken = (token: string) => token.length >= 10

const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/_auth/course-invite')({
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ token: search.token ?? '' }),
  loader: ({ context, deps: { token } }) =>
    isPlausibleToken(token)
      ? context.queryClient.ensureQueryData(context.trpc.studioPublishing.invitation.queryOptions({ token }))
      : null,
  head: () => ({ meta: [{ title: 'Co-teach a course | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
  pendingComponent: () => (
    <InviteCard title="Co-teach a course">
      <LoadingState label="Checking your invitation…" />
    </InviteCard>
  ),
  errorComponent: ({ error }) => (
    <InviteCard title="Co-teach a course">
      <RouteError error={error} title="Invitation unavailable" />
    </InviteCard>
  ),
  component: CourseInvitePage,
})

function CourseInvitePage() {
  const token = useTokenFromAddress(Route.useSearch().token) ?? ''
  return (
    <InviteCard title="Co-teach a course">
      {isPlausibleToken(token) ? <Accept token={token} /> : <IncompleteInviteLink />}
    </InviteCard>
  )
}

function Accept({ token }: { token: string }) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { data: invite } = useSuspenseQuery(trpc.studioPublishing.invitation.queryOptions({ token }))
  const accept = useMutation(
    trpc.studioPublishing.acceptInvitation.mutationOptions({
      onSuccess: async ({ courseId }) => {
        await queryClient.invalidateQueries()
        notify('success', 'You are a co-instructor now')
        await navigate({ to: '/studio/courses/$courseId/publish', params: { courseId } })
      },
      onError: (error) => notifyError(error),
    }),
  )
  return (
    <AcceptInvite invite={invite} pending={accept.isPending} onAccept={() => accept.mutate({ token })}>
      {invite.invitedBy ?? 'A creator'} invited {invite.email} to co-teach <strong>{invite.courseTitle}</strong>.
    </AcceptInvite>
  )
}
