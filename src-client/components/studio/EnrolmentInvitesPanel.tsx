// The owner's open invitations to take their courses (decision 0128), on /studio/api: the REST API invites anyone the
// school has no enrolment of by e-mail, and the invitation waits until they accept it. The owner sees who was invited
// to which course and until when, and withdraws one (its link stops working). The server checks that the invitation
// is to one of the caller's own courses (flows/enrolment-invites.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { button } from '#client/components/ui/button.ts'
import { TitledSection } from '#client/components/ui/layout.tsx'
import { panel as card, panelHeading as heading } from '#client/components/ui/panel.ts'
import { QueryList } from '#client/components/ui/QueryList.tsx'
import { reloadThenToast } from '#client/components/ui/toaster.tsx'
import { focusElement } from '#client/lib/focus.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'

export function EnrolmentInvitesPanel() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const invites = useQuery(trpc.studio.enrolmentInvitations.queryOptions())
  const withdraw = useMutation(
    trpc.studio.withdrawEnrolmentInvitation.mutationOptions(
      reloadThenToast(async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.studio.enrolmentInvitations.pathKey() })
        // The withdrawn row and its button go: focus stays in the section rather than drop to the page.
        focusElement(document.getElementById('invites-heading'))
      }, 'Invitation withdrawn: its link no longer works'),
    ),
  )
  return (
    <TitledSection id="invites-heading" title="Course invitations" className={card} titleClassName={heading}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        When your systems enrol someone by e-mail who has not taken one of your courses, we mail them an invitation
        instead. They are enrolled once they accept it; until then they are listed here.
      </p>
      <QueryList
        query={invites}
        loading="Loading invitations…"
        failed="Could not load your invitations"
        empty="No open invitations"
      >
        {(data) => (
          <>
            <ul aria-label="Open invitations" className={css({ display: 'flex', flexDir: 'column', gap: '3' })}>
              {data.items.map((invite) => (
                <li
                  key={invite.id}
                  className={css({ borderTopWidth: '1px', borderColor: 'line', pt: '3', overflowWrap: 'anywhere' })}
                >
                  <p>
                    <strong>{invite.email}</strong> · {invite.courseTitle}
                  </p>
                  <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                    Link valid until {formatDate(invite.expiresAt, 'mediumTime')}
                  </p>
                  <button
                    type="button"
                    // A long address wraps rather than push a phone's page sideways.
                    className={cx(button({ variant: 'outline', size: 'sm', wrap: true }), css({ maxW: 'full' }))}
                    {...whilePending(withdraw.isPending, 'onClick', () => withdraw.mutate({ inviteId: invite.id }))}
                  >
                    Withdraw the invitation to {invite.email}
                  </button>
                </li>
              ))}
            </ul>
            {data.more ? (
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                Showing the newest {data.items.length}. The API’s <code>GET /enrolment-invitations</code> lists them
                all.
              </p>
            ) : null}
          </>
        )}
      </QueryList>
    </TitledSection>
  )
}
