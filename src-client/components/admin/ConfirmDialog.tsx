import type { ReactNode } from 'react'
import { whilePending } from '#client/lib/while-pending.ts'
import { button } from '../ui/button.ts'
import { AdminDialog } from './AdminDialog.tsx'

/** Asks before an irreversible action; `children`: what the action takes besides (a reason, a refund's reference). */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  pendingLabel = 'Working...',
  pending,
  disabled = false,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean
  title: string
  description: string
  confirmLabel: string
  cancelLabel?: string
  pendingLabel?: string
  pending: boolean
  /** The action cannot go yet (a field it needs is empty). */
  disabled?: boolean
  onConfirm: () => void
  onCancel: () => void
  children?: ReactNode
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
            {cancelLabel}
          </button>
          <button
            type="button"
            className={button({ variant: 'danger' })}
            {...whilePending(pending || disabled, 'onClick', onConfirm)}
          >
            {pending ? pendingLabel : confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </AdminDialog>
  )
}
