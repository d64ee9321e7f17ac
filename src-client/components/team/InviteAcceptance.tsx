// The pages where an invitee accepts a team invitation (a course's co-instructors, a school's team): the accept
// button for the invited address only (the server checks it again). The card around them is InviteCard.tsx.
import { useQueryClient } from '@tanstack/react-query'
import { CatchBoundary, type ErrorComponentProps } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { button } from '#client/components/ui/button.ts'
import { RouteError } from '#client/components/ui/RouteError.tsx'
import { ErrorState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTokenFromAddress } from '#client/lib/native-form.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { css } from '#styled-system/css'
import { InviteCard, isPlausibleInviteToken } from './InviteCard.tsx'

/** The page for a token too short to be one of ours: the link is incomplete. */
function IncompleteInviteLink() {
  return <ErrorState title="This invitation link is incomplete" />
}

/** A refused link (used, expired, cancelled) under the page's heading, as the route's error screen says it. */
function InviteUnavailable({ error }: Pick<ErrorComponentProps, 'error'>) {
  return <RouteError error={error} title="Invitation unavailable" />
}

/**
 * The page under its heading: the token is taken out of the address bar (`searchToken`, the route's search) as soon as
 * the page runs; a plausible one gets the invitation (`accept`), else the page says the link is incomplete. A refusal
 * is caught here, below the page, so the page itself is drawn and takes a dead link's token out of the address too
 * (caught by the route instead, the page never ran).
 */
export function InvitePage({
  title,
  searchToken,
  accept,
}: {
  title: string
  searchToken: string | undefined
  accept: (token: string) => ReactNode
}) {
  const token = useTokenFromAddress(searchToken) ?? ''
  return (
    <InviteCard title={title}>
      {isPlausibleInviteToken(token) ? (
        <CatchBoundary getResetKey={() => token} errorComponent={InviteUnavailable}>
          {accept(token)}
        </CatchBoundary>
      ) : (
        <IncompleteInviteLink />
      )}
    </InviteCard>
  )
}

/** The accept call's outcome: once accepted, every query is fetched again, the toast says so, then `next` (where the
 * new member goes); a refusal is a toast. */
export function useAcceptedInvitation<Result>(done: string, next: (result: Result) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return {
    onSuccess: async (result: Result) => {
      await queryClient.invalidateQueries()
      notify('success', done)
      await next(result)
    },
    onError: (error: unknown) => notifyError(error),
  }
}

/** What the invitation is (children), then the accept button, or why this account cannot accept. */
export function AcceptInvite({
  invite,
  pending,
  onAccept,
  children,
}: {
  invite: { email: string; forThisAccount: boolean }
  pending: boolean
  onAccept: () => void
  children: ReactNode
}) {
  return (
    <>
      <p className={css({ mb: '6' })}>{children}</p>
      {invite.forThisAccount ? (
        <button type="button" className={button({ size: 'lg' })} {...whilePending(pending, 'onClick', onAccept)}>
          {pending ? 'Accepting…' : 'Accept the invitation'}
        </button>
      ) : (
        <p role="alert" className={css({ color: 'danger' })}>
          This invitation was sent to {invite.email}: sign in with that address to accept it.
        </p>
      )}
    </>
  )
}
