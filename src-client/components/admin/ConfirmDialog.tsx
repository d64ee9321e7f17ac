import { button } from '../ui/button.ts'
import { AdminDialog } from './AdminDialog.tsx'

/** Asks before an irreversible action. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
  onCancel,
}: {
  open: boolean
  title: string
  description: string
  confirmLabel: string
  pending: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onCancel())}
      title={title}
      description={description}
      footer={
        <>
          <button type="button" className={button({ variant: 'outline' })} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={button({ variant: 'danger' })} disabled={pending} onClick={onConfirm}>
            {pending ? 'Working...' : confirmLabel}
          </button>
        </>
      }
    />
  )
}
