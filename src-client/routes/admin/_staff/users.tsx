// Team Members: Name (with initials), Email, Role (inline change for admins), Last Active, Actions.
import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { AdminTable, RowAction } from '#client/components/admin/AdminTable.tsx'
import { ConfirmDialog } from '#client/components/admin/ConfirmDialog.tsx'
import { lastActive } from '#client/components/admin/format.ts'
import { InviteDialog } from '#client/components/admin/InviteDialog.tsx'
import { PendingInvitations } from '#client/components/admin/PendingInvitations.tsx'
import { inputClass, pageHead, pageTitle, panel } from '#client/components/admin/styles.ts'
import { useRefreshAdmin, useStaff } from '#client/components/admin/use-staff.ts'
import { Avatar } from '#client/components/auth/Avatar.tsx'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { RoleSelect } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError, reloadThenToast } from '#client/components/ui/toaster.tsx'
import type { RouterOutputs } from '#client/lib/types.ts'
import { capitalise, TEAM_ROLES } from '#shared/constants.ts'
import { hasRole } from '#shared/roles.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/admin/_staff/users')({
  head: () => ({ meta: [{ title: 'Team Members | SkillForge Admin' }] }),
  loader: ({ context: { queryClient, trpc, me } }) =>
    Promise.all([
      queryClient.ensureQueryData(trpc.admin.team.list.queryOptions()),
      // Only admins see (and may read) the pending invitations; they show their own error.
      hasRole(me.role, 'admin') ? queryClient.prefetchQuery(trpc.admin.team.pendingInvitations.queryOptions()) : null,
    ]),
  pendingComponent: () => <LoadingState label="Loading team…" />,
  errorComponent: routeError('Could not load the team'),
  component: TeamMembers,
})

type Member = RouterOutputs['admin']['team']['list'][number]
const ROLE_TONE = { super_admin: 'red', admin: 'red', editor: 'blue', viewer: 'grey', customer: 'grey' } as const

function TeamMembers() {
  const { trpc } = Route.useRouteContext()
  const { me, can } = useStaff()
  const { data: team } = useSuspenseQuery(trpc.admin.team.list.queryOptions())
  const [inviting, setInviting] = useState(false)
  const [removing, setRemoving] = useState<Member | null>(null)
  const refresh = useRefreshAdmin()
  const changeRole = useMutation(
    trpc.admin.team.changeRole.mutationOptions(reloadThenToast(refresh, 'Role updated successfully!')),
  )
  const remove = useMutation(
    trpc.admin.team.remove.mutationOptions({
      onSuccess: async () => {
        setRemoving(null)
        await refresh()
        notify('success', 'Team member removed successfully!')
      },
      onError: (error) => notifyError(error),
    }),
  )
  const manage = can('admin')

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Team Members</h1>
        {manage ? (
          <button type="button" className={button()} onClick={() => setInviting(true)}>
            Add Team Member
          </button>
        ) : null}
      </div>
      <div className={panel}>
        {team.length === 0 ? (
          <EmptyState title="No team members yet" />
        ) : (
          <AdminTable scrollLabel="Team members" columns={['Name', 'Email', 'Role', 'Last Active', 'Actions']}>
            {team.map((member) => {
              const editable = manage && !member.isOwner && member.id !== me.id
              return (
                <tr key={member.id} data-testid={`member-${member.email}`}>
                  <td>
                    <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
                      <Avatar name={member.name} />
                      <span className={css({ fontWeight: 'semibold' })}>{member.name}</span>
                      {member.isOwner ? (
                        <span className={badge({ tone: 'yellow' })} title="Owner: cannot be changed or removed">
                          ★ Owner
                        </span>
                      ) : null}
                    </div>
                  </td>
                  <td>{member.email}</td>
                  <td>
                    {editable ? (
                      <RoleSelect
                        label={`Role of ${member.name}`}
                        role={member.role}
                        roles={TEAM_ROLES}
                        roleLabel={capitalise}
                        pending={changeRole.isPending}
                        onChoose={(role) => changeRole.mutate({ userId: member.id, role })}
                        controlClassName={inputClass}
                      />
                    ) : (
                      <span className={badge({ tone: ROLE_TONE[member.role] })}>
                        {member.isOwner ? 'Owner' : capitalise(member.role)}
                      </span>
                    )}
                  </td>
                  <td>{lastActive(member.lastActive)}</td>
                  <td>
                    {editable ? (
                      <RowAction action="Remove" row={member.name} onClick={() => setRemoving(member)} />
                    ) : null}
                  </td>
                </tr>
              )
            })}
          </AdminTable>
        )}
      </div>
      {manage ? <PendingInvitations /> : null}
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <ConfirmDialog
        open={removing !== null}
        title="Remove team member?"
        description={`${removing?.name ?? ''} will lose access to the admin area and be signed out everywhere.`}
        confirmLabel="Remove"
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ userId: removing.id })}
      />
    </>
  )
}
