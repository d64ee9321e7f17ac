// The admin's modal dialog (Ark UI): title, description, body and a footer of actions.
import { Dialog } from '@ark-ui/react/dialog'
import type { ReactNode } from 'react'
import { css } from '#styled-system/css'
import { dialogContent, dialogPositioner, useOpener } from '../ui/dialog.ts'
import { ModalFrame } from '../ui/modal-frame.tsx'

export function AdminDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  wide = false,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: string
  children?: ReactNode
  footer: ReactNode
  wide?: boolean
}) {
  const opener = useOpener(open)
  return (
    <ModalFrame open={open} onOpenChange={onOpenChange} returnFocusTo={opener}>
      <Dialog.Positioner className={dialogPositioner}>
        <Dialog.Content className={dialogContent({ size: wide ? 'wide' : 'md' })}>
          <Dialog.Title className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
              {description}
            </Dialog.Description>
          ) : null}
          <div className={css({ mt: '5' })}>{children}</div>
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3', mt: '6', flexWrap: 'wrap' })}>
            {footer}
          </div>
        </Dialog.Content>
      </Dialog.Positioner>
    </ModalFrame>
  )
}
