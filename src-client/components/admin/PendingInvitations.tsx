// Invitations sent but not yet accepted; an admin can withdraw one (its link stops working at once).

import { useMutation, useQuery } from '@tanstack/react-query'
import { boxHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { whilePending } from '#client/lib/while-pending.ts'
import { capitalise } from '#shared/constants.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { ErrorState } from '../ui/states.tsx'
import { reloadThenToast } from '../ui/toaster.tsx'
import { AdminTable } from './AdminTable.tsx'
import { panel } from './styles.ts'
import { useRefreshAdmin, useTRPC } from './use-staff.ts'

export function PendingInvitations() {
  const trpc = useTRPC()
  const refresh = useRefreshAdmin()
  const pending = useQuery(trpc.admin.team.pendingInvitations.queryOptions())
  const revoke = useMutation(
    trpc.admin.team.revokeInvitation.mutationOptions(reloadThenToast(refresh, 'Invitation withdrawn')),
  )
  if (pending.isError) return <ErrorState title="Could not load invitations" error={pending.error} />
  if (!pending.data?.length) return null
  return (
    <TitledSection
      id="pending-title"
      title="Pending invitations"
      className={css({ mt: '8' })}
      titleClassName={boxHeading}
    >
      <div className={panel}>
        <AdminTable scrollLabel="Pending invitations" columns={['Name', 'Email', 'Role', 'Expires', 'Actions']}>
          {pending.data.map((invite) => (
            <tr key={invite.id} data-testid={`invite-${invite.email}`}>
              <td>{invite.name || '—'}</td>
              <td>{invite.email}</td>
              <td>{capitalise(invite.role)}</td>
              <td>{formatDate(invite.expiresAt, 'medium')}</td>
              <td>
                <button
                  type="button"
                  className={button({ variant: 'ghost', size: 'sm' })}
                  aria-label={`Withdraw the invitation to ${invite.email}`}
                  {...whilePending(revoke.isPending, 'onClick', () => revoke.mutate({ id: invite.id }))}
                >
                  Withdraw
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      </div>
    </TitledSection>
  )
}
