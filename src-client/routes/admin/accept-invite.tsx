// Where an invited team member sets a password and joins with the role chosen for them.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import type { FormEvent, ReactNode } from 'react'
import { DialogForm } from '#client/components/admin/DialogForm.tsx'
import { optionalText, searchParams } from '#client/components/admin/search.ts'
import { MainAround } from '#client/components/layout/MainLandmark.tsx'
import { button } from '#client/components/ui/button.ts'
import { raisedCard } from '#client/components/ui/card.ts'
import { useFieldErrors } from '#client/components/ui/field-errors.tsx'
import { PasswordField } from '#client/components/ui/form.tsx'
import { RouteError } from '#client/components/ui/RouteError.tsx'
import { ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { notify } from '#client/components/ui/toaster.tsx'
import { postedFields, useTokenFromAddress } from '#client/lib/native-form.ts'
import { submitWhilePending } from '#client/lib/while-pending.ts'
import { PASSWORD_MIN_LENGTH } from '#shared/constants.ts'
import { css, cx } from '#styled-system/css'

// Shorter than any token we issue: not worth asking the server about.
const isPlausibleToken = (token: string) => token.length >= 10

const routeSearch = searchParams({ token: optionalText })

export const Route = createFileRoute('/admin/accept-invite')({
  validateSearch: routeSearch,
  loaderDeps: ({ search }) => ({ token: search.token ?? '' }),
  loader: ({ context, deps: { token } }) =>
    isPlausibleToken(token)
      ? context.queryClient.ensureQueryData(context.trpc.admin.team.invitation.queryOptions({ token }))
      : null,
  head: () => ({ meta: [{ title: 'Join the team | SkillForge' }, { name: 'robots', content: 'noindex' }] }),
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
  component: AcceptInvitePage,
})

function InviteCard({ children }: { children: ReactNode }) {
  return (
    <MainAround className={css({ minH: '100vh', display: 'grid', placeItems: 'center', bg: 'canvas', p: '4' })}>
      <div className={cx(raisedCard, css({ w: 'full', maxW: 'md', p: '8' }))}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '2' })}>Join the admin team</h1>
        {children}
      </div>
    </MainAround>
  )
}

function AcceptInvitePage() {
  // Kept for the form, and taken out of the address bar (history, a copied address).
  const token = useTokenFromAddress(Route.useSearch().token) ?? ''
  return (
    <InviteCard>
      {isPlausibleToken(token) ? (
        <AcceptForm token={token} />
      ) : (
        <ErrorState title="This invitation link is incomplete" />
      )}
    </InviteCard>
  )
}

function AcceptForm({ token }: { token: string }) {
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { data: invitation } = useSuspenseQuery(trpc.admin.team.invitation.queryOptions({ token }))
  const fields = useFieldErrors<'password' | 'confirm'>()
  const accept = useMutation(
    trpc.admin.team.acceptInvitation.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries()
        notify('success', 'Welcome to the team!', 'Your account is ready.')
        await navigate({ to: '/admin' })
      },
      onError: (failure) => fields.fromError(failure, ['password']),
    }),
  )

  function submit(event: FormEvent<HTMLFormElement>) {
    const { password = '', confirm } = postedFields(event.currentTarget)
    if (password.length < PASSWORD_MIN_LENGTH)
      return fields.show({ password: 'Password must be at least 8 characters' })
    if (password !== confirm) return fields.show({ confirm: 'The passwords do not match' })
    fields.clear()
    accept.mutate({ token, password })
  }

  return (
    <>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '6' })}>
        {invitation.email} is invited to join as <strong>{invitation.role}</strong>. Choose a password.
      </p>
      <DialogForm fields={fields} onSubmit={submit}>
        <PasswordField label="Password" name="password" autoComplete="new-password" error={fields.errors.password} />
        <PasswordField
          label="Confirm password"
          name="confirm"
          autoComplete="new-password"
          error={fields.errors.confirm}
        />
        <button type="submit" className={button({ size: 'lg' })} {...submitWhilePending(accept.isPending)}>
          {accept.isPending ? 'Joining...' : 'Join the team'}
        </button>
      </DialogForm>
    </>
  )
}
