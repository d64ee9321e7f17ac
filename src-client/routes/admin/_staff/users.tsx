// Team Members: Name (with initials), Email, Role (inline change for admins), Last Active, Actions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { capitalise, TEAM_ROLES } from '../../../../src-shared/constants.ts'
import { css } from '../../../../styled-system/css'
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog.tsx'
import { initials, lastActive } from '../../../components/admin/format.ts'
import { InviteDialog } from '../../../components/admin/InviteDialog.tsx'
import { PendingInvitations } from '../../../components/admin/PendingInvitations.tsx'
import { badge, inputClass, pageHead, pageTitle, panel, table } from '../../../components/admin/styles.ts'
import { useStaff } from '../../../components/admin/use-staff.ts'
import { button } from '../../../components/ui/button.ts'
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/states.tsx'
import { notify } from '../../../components/ui/toaster.tsx'
import { errorMessage } from '../../../lib/trpc.ts'
import type { RouterOutputs } from '../../../lib/types.ts'

export const Route = createFileRoute('/admin/_staff/users')({
  head: () => ({ meta: [{ title: 'Team Members | SkillForge Admin' }] }),
  component: TeamMembers,
})

type Member = RouterOutputs['admin']['team']['list'][number]
const ROLE_TONE = { super_admin: 'red', admin: 'red', editor: 'blue', viewer: 'grey', customer: 'grey' } as const

function TeamMembers() {
  const { trpc } = Route.useRouteContext()
  const queryClient = useQueryClient()
  const { me, can } = useStaff()
  const team = useQuery(trpc.admin.team.list.queryOptions())
  const [inviting, setInviting] = useState(false)
  const [removing, setRemoving] = useState<Member | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
  const changeRole = useMutation(
    trpc.admin.team.changeRole.mutationOptions({
      onSuccess: async () => {
        await refresh()
        notify('success', 'Role updated successfully!')
      },
      onError: (error) => notify('error', errorMessage(error)),
    }),
  )
  const remove = useMutation(
    trpc.admin.team.remove.mutationOptions({
      onSuccess: async () => {
        setRemoving(null)
        await refresh()
        notify('success', 'Team member removed successfully!')
      },
      onError: (error) => notify('error', errorMessage(error)),
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
        {team.isPending ? (
          <LoadingState label="Loading team…" />
        ) : team.isError ? (
          <ErrorState title="Could not load the team" error={team.error} onRetry={() => void team.refetch()} />
        ) : team.data.length === 0 ? (
          <EmptyState title="No team members yet" />
        ) : (
          <table className={table}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                <th>Last Active</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {team.data.map((member) => {
                const editable = manage && !member.isOwner && member.id !== me.id
                return (
                  <tr key={member.id} data-testid={`member-${member.email}`}>
                    <td>
                      <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
                        <span
                          aria-hidden
                          className={css({
                            w: '9',
                            h: '9',
                            borderRadius: 'full',
                            bg: 'brand.100',
                            color: 'brand.700',
                            display: 'grid',
                            placeItems: 'center',
                            fontSize: 'xs',
                            fontWeight: 'bold',
                          })}
                        >
                          {initials(member.name)}
                        </span>
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
                        <label>
                          <span className={css({ srOnly: true })}>Role of {member.name}</span>
                          <select
                            className={inputClass}
                            value={member.role}
                            disabled={changeRole.isPending}
                            onChange={(event) =>
                              changeRole.mutate({
                                userId: member.id,
                                role: event.target.value as (typeof TEAM_ROLES)[number],
                              })
                            }
                          >
                            {TEAM_ROLES.map((role) => (
                              <option key={role} value={role}>
                                {capitalise(role)}
                              </option>
                            ))}
                          </select>
                        </label>
                      ) : (
                        <span className={badge({ tone: ROLE_TONE[member.role] })}>
                          {member.isOwner ? 'Owner' : capitalise(member.role)}
                        </span>
                      )}
                    </td>
                    <td>{lastActive(member.lastActive)}</td>
                    <td>
                      {editable ? (
                        <button
                          type="button"
                          className={button({ variant: 'ghost', size: 'sm' })}
                          aria-label={`Remove ${member.name}`}
                          onClick={() => setRemoving(member)}
                        >
                          Remove
                        </button>
                      ) : null}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
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
