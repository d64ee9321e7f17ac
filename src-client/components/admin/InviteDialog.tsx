// 'Add Team Member': creates an invitation with a single-use link, e-mailed through the outbox. Afterwards the
// dialog shows the link with Copy link: without SMTP nothing leaves the server, so the admin hands it over.
import { useMutation } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { capitalise, TEAM_ROLES } from '#shared/constants.ts'
import { button } from '../ui/button.ts'
import { useFieldErrors } from '../ui/field-errors.tsx'
import { Options, SelectField, TextField } from '../ui/form.tsx'
import { notify } from '../ui/toaster.tsx'
import { useCopy } from '../ui/use-copy.ts'
import { AdminDialog } from './AdminDialog.tsx'
import { CancelSubmitFooter, DialogForm } from './DialogForm.tsx'
import { useRefreshAdmin, useTRPC } from './use-staff.ts'

type TeamRole = (typeof TEAM_ROLES)[number]

export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC()
  const refresh = useRefreshAdmin()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<TeamRole>('viewer')
  const fields = useFieldErrors<'name' | 'email' | 'role'>()
  const { clear } = fields
  const [invited, setInvited] = useState<{ email: string; link: string; mailed: boolean } | null>(null)
  useEffect(() => {
    if (!open) return
    setName('')
    setEmail('')
    setRole('viewer')
    clear()
    setInvited(null)
  }, [open, clear])

  const invite = useMutation(
    trpc.admin.team.invite.mutationOptions({
      onSuccess: async (result) => {
        await refresh()
        if (result.mailed)
          notify('success', 'Invitation created', `An invitation is being e-mailed to ${result.email}.`)
        else notify('success', 'Invitation created', `No mail server is set up: copy the link and send it yourself.`)
        setInvited(result)
      },
      // The server's field errors (a bad address, already a member) go under their fields.
      onError: (failure) => fields.fromError(failure, ['name', 'email', 'role']),
    }),
  )

  if (invited) return <InvitedDialog invited={invited} onClose={onClose} />

  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title="Add Team Member"
      description="Add a new user to your admin team. They'll receive an email invitation."
      footer={
        <CancelSubmitFooter
          formId={fields.formId}
          label="Add Member"
          pendingLabel="Sending..."
          pending={invite.isPending}
          onCancel={onClose}
        />
      }
    >
      <DialogForm fields={fields} onSubmit={() => invite.mutate({ name, email, role })}>
        <TextField
          label="Name"
          error={fields.errors.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <TextField
          label="Email"
          error={fields.errors.email}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <SelectField
          label="Role"
          error={fields.errors.role}
          value={role}
          onChange={(event) => setRole(event.target.value as TeamRole)}
        >
          <Options items={TEAM_ROLES} label={capitalise} />
        </SelectField>
      </DialogForm>
    </AdminDialog>
  )
}

function InvitedDialog({
  invited,
  onClose,
}: {
  invited: { email: string; link: string; mailed: boolean }
  onClose: () => void
}) {
  const { copied, copy } = useCopy()
  return (
    <AdminDialog
      open
      onOpenChange={(next) => (next ? undefined : onClose())}
      title="Add Team Member"
      description={
        invited.mailed
          ? `An invitation is being e-mailed to ${invited.email}. You can also send them this link:`
          : `Invitation created for ${invited.email}. No mail server is set up, so send them this link yourself:`
      }
      footer={
        <>
          <button type="button" className={button({ variant: 'outline' })} onClick={() => void copy(invited.link)}>
            {copied ? 'Copied' : 'Copy link'}
          </button>
          <button type="button" className={button()} onClick={onClose}>
            Done
          </button>
        </>
      }
    >
      <TextField
        label="Invitation link (works once, for 7 days)"
        readOnly
        value={invited.link}
        onFocus={(event) => event.target.select()}
      />
    </AdminDialog>
  )
}
