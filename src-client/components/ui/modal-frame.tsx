// The frame of every modal (Ark UI Dialog) opened and closed from outside: mounted only while open, over the dimmed
// backdrop, focus given back on close to `returnFocusTo`. Its positioner and content are the caller's (a centred
// dialog, a drawer).
import { Dialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { dialogBackdrop } from './dialog.ts'

export function ModalFrame({
  open,
  onOpenChange,
  returnFocusTo,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  returnFocusTo: () => HTMLElement | null
  children: ReactNode
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      finalFocusEl={returnFocusTo}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className={dialogBackdrop} />
        {children}
      </Portal>
    </Dialog.Root>
  )
}
