// 'Add Team Member': sends an invitation e-mail with a single-use link (the server writes it to the mail outbox).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { capitalise, TEAM_ROLES } from '../../../src-shared/constants.ts'
import { css } from '../../../styled-system/css'
import { errorMessage } from '../../lib/errors.ts'
import { button } from '../ui/button.ts'
import { notify } from '../ui/toaster.tsx'
import { AdminDialog } from './AdminDialog.tsx'
import { errorText, fieldClass, inputClass } from './styles.ts'
import { useTRPC } from './use-staff.ts'

type TeamRole = (typeof TEAM_ROLES)[number]

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<TeamRole>('viewer')
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (!open) return
    setName('')
    setEmail('')
    setRole('viewer')
    setError(null)
  }, [open])

  const invite = useMutation(
    trpc.admin.team.invite.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() })
        notify('success', 'Invitation sent', `An invitation was e-mailed to ${result.email}.`)
        onClose()
      },
      onError: (failure) => setError(errorMessage(failure)),
    }),
  )

  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title="Add Team Member"
      description="Add a new user to your admin team. They'll receive an email invitation."
      footer={
        <>
          <button type="button" className={button({ variant: 'outline' })} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className={button()}
            disabled={invite.isPending}
            onClick={() => invite.mutate({ name, email, role })}
          >
            {invite.isPending ? 'Sending...' : 'Add Member'}
          </button>
        </>
      }
    >
      <form
        className={css({ display: 'flex', flexDir: 'column', gap: '4' })}
        onSubmit={(event) => {
          event.preventDefault()
          invite.mutate({ name, email, role })
        }}
      >
        {error ? (
          <p role="alert" className={errorText}>
            {error}
          </p>
        ) : null}
        <label className={fieldClass}>
          Name
          <input className={inputClass} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label className={fieldClass}>
          Email
          <input className={inputClass} type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label className={fieldClass}>
          Role
          <select className={inputClass} value={role} onChange={(event) => setRole(event.target.value as TeamRole)}>
            {TEAM_ROLES.map((option) => (
              <option key={option} value={option}>
                {capitalise(option)}
              </option>
            ))}
          </select>
        </label>
      </form>
    </AdminDialog>
  )
}
