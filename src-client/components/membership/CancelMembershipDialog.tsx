// Cancel membership: asks first, with an optional reason; the membership runs to the end of the paid period.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { CANCEL_REASON_MAX } from '#shared/schemas/membership.ts'
import { css } from '#styled-system/css'
import { ConfirmDialog } from '../admin/ConfirmDialog.tsx'
import { inputClass, TextAreaField } from '../ui/form.tsx'
import { notify, notifyError } from '../ui/toaster.tsx'

export function CancelMembershipDialog({
  open,
  endsOn,
  trialing = false,
  onClose,
  onDone,
}: {
  open: boolean
  endsOn: string | null
  /** In its free trial: nothing was ever charged, so nothing is "charged again". */
  trialing?: boolean
  onClose: () => void
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const cancel = useMutation(trpc.membership.cancel.mutationOptions())
  const [reason, setReason] = useState('')
  const until = endsOn ? formatDate(endsOn) : null

  async function onConfirm() {
    try {
      await cancel.mutateAsync({ reason: reason.trim() || undefined })
      notify('success', until ? `Your membership will end on ${until}` : 'Your membership is cancelled')
      onClose()
    } catch (error) {
      notifyError(error, 'Could not cancel your membership')
    }
    await onDone()
  }

  return (
    <ConfirmDialog
      open={open}
      title="Cancel membership?"
      description={
        trialing && until
          ? `Your free trial stays until ${until}; you will not be charged. You can resume before then.`
          : until
            ? `Premium stays until ${until}; you will not be charged again. You can resume before then.`
            : 'You will not be charged again.'
      }
      cancelLabel="Keep membership"
      confirmLabel="Cancel membership"
      pendingLabel="Cancelling…"
      pending={cancel.isPending}
      onConfirm={() => void onConfirm()}
      onCancel={onClose}
    >
      <TextAreaField
        label="Reason (optional)"
        className=""
        controlClassName={`${inputClass} ${css({ h: '24', py: '2', mt: '1' })}`}
        maxLength={CANCEL_REASON_MAX}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
    </ConfirmDialog>
  )
}
