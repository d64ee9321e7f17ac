// Where an invited co-instructor, signed in with the invited address, accepts an invitation to co-teach a course.
// The token is taken out of the address bar as soon as the page runs (history, a copied address) and never logged.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { button } from '#client/components/ui/button.ts'
import { RouteError } from '#client/components/ui/RouteError.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTokenFromAddress } from '#client/lib/native-form.ts'
import { css } from '#styled-system/css'

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
    <InviteCard>
      <LoadingState label="Checking your invitation…" />
    </InviteCard>
  ),
  errorComponent: ({ error }) => (
    <InviteCard>
      <RouteError error={error} title="Invitation unavailable" />
    </InviteCard>
  ),
  component: CourseInvitePage,
})

function InviteCard({ children }: { children: ReactNode }) {
  return (
    <main className={css({ display: 'grid', placeItems: 'center', py: '12', px: '4' })}>
      <div className={css({ w: 'full', maxW: 'md', bg: 'surface', borderRadius: 'card', boxShadow: 'card', p: '8' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '2' })}>Co-teach a course</h1>
        {children}
      </div>
    </main>
  )
}

function CourseInvitePage() {
  const token = useTokenFromAddress(Route.useSearch().token) ?? ''
  return (
    <InviteCard>
      {isPlausibleToken(token) ? <Accept token={token} /> : <ErrorState title="This invitation link is incomplete" />}
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
    <>
      <p className={css({ mb: '6' })}>
        {invite.invitedBy ?? 'A creator'} invited {invite.email} to co-teach <strong>{invite.courseTitle}</strong>.
      </p>
      {invite.forThisAccount ? (
        <button
          type="button"
          className={button({ size: 'lg' })}
          disabled={accept.isPending}
          onClick={() => accept.mutate({ token })}
        >
          {accept.isPending ? 'Accepting…' : 'Accept the invitation'}
        </button>
      ) : (
        <p role="alert" className={css({ color: 'danger' })}>
          This invitation was sent to {invite.email}: sign in with that address to accept it.
        </p>
      )}
    </>
  )
}
