// Every signed-in session of the account: device and browser, the network it signed in from (the nearest we say to a
// place), when it was last active; Sign out per session and Sign out everywhere else. The server checks ownership.

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { errorMessage } from '#client/lib/errors.ts'
import { countOf } from '#client/lib/format.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { EmptyState } from '../ui/states.tsx'
import { notify } from '../ui/toaster.tsx'
import { SectionCard, securityRow } from './SectionCard.tsx'

type Session = RouterOutputs['security']['overview']['sessions'][number]

export function SessionsSection({ sessions }: { sessions: Session[] }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.security.overview.queryKey() })
  const signOutOne = useMutation(trpc.security.signOutSession.mutationOptions())
  const signOutOthers = useMutation(trpc.security.signOutOthers.mutationOptions())
  const others = sessions.filter((session) => !session.current)

  async function endOne(session: Session) {
    try {
      await signOutOne.mutateAsync({ sessionId: session.id })
      notify('success', 'Signed out', `${session.browser} on ${session.system} is signed out.`)
    } catch (caught) {
      notify('error', 'Could not sign out that session', errorMessage(caught))
    }
    await refresh()
  }

  async function endOthers() {
    try {
      const { ended } = await signOutOthers.mutateAsync()
      notify('success', 'Signed out everywhere else', `${countOf(ended, 'other session')} ended.`)
    } catch (caught) {
      notify('error', 'Could not sign out the other sessions', errorMessage(caught))
    }
    await refresh()
  }

  return (
    <SectionCard
      title="Where you're signed in"
      description="Places are approximate: only the network a device signed in from is kept, never its address."
      // A session signed out takes its button with it: focus goes to the list, which is read out again.
      phase={String(sessions.length)}
    >
      {sessions.length === 0 ? (
        <EmptyState title="No signed-in sessions" />
      ) : (
        <ul
          className={css({ display: 'flex', flexDir: 'column', gap: '3' })}
          aria-label="Signed-in sessions"
          tabIndex={-1}
          data-refocus
        >
          {sessions.map((session) => (
            <li key={session.id} data-testid="session-row" className={securityRow}>
              <div className={css({ minW: '0' })}>
                <p className={css({ fontWeight: 'semibold' })}>
                  {session.browser} on {session.system}
                  {session.current ? (
                    <span className={css({ ml: '2', fontSize: 'sm', color: 'success', fontWeight: 'medium' })}>
                      This device
                    </span>
                  ) : null}
                </p>
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                  {session.network ? `Network ${session.network}` : 'Network unknown'} · Last active{' '}
                  {formatDate(session.lastActiveAt, 'mediumTime')}
                </p>
              </div>
              {session.current ? null : (
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  {...whilePending(signOutOne.isPending, 'onClick', () => endOne(session))}
                  aria-label={`Sign out ${session.browser} on ${session.system}, last active ${formatDate(session.lastActiveAt, 'mediumTime')}`}
                >
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 ? (
        <div className={css({ mt: '4' })}>
          <button
            type="button"
            className={button({ variant: 'outline' })}
            {...whilePending(signOutOthers.isPending, 'onClick', endOthers)}
          >
            {signOutOthers.isPending ? 'Signing out...' : 'Sign out everywhere else'}
          </button>
        </div>
      ) : null}
    </SectionCard>
  )
}
