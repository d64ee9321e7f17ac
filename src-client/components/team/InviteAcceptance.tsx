// The pages where an invitee accepts a team invitation (a course's co-instructors, a school's team): the accept
// button for the invited address only (the server checks it again). The card around them is InviteCard.tsx.
import type { ReactNode } from 'react'
import { button } from '#client/components/ui/button.ts'
import { ErrorState } from '#client/components/ui/states.tsx'
import { css } from '#styled-system/css'

/** A token too short to be one of ours is not sent to the server; the page says the link is incomplete. */
export function IncompleteInviteLink() {
  return <ErrorState title="This invitation link is incomplete" />
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
        <button type="button" className={button({ size: 'lg' })} disabled={pending} onClick={onAccept}>
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
