// The drawer's panel (Ark UI Dialog): traps focus, closes on Escape or a tap outside, and gives focus back to the
// button that opened it. Loaded on first open (Drawer.tsx), so the dialog code stays out of the first page's JavaScript.
import { Dialog } from '@ark-ui/react/dialog'
import type { ReactNode } from 'react'
import { css } from '#styled-system/css'
import { button } from './button.ts'
import { Icon } from './icons.tsx'
import { ModalFrame } from './modal-frame.tsx'

export default function DrawerPanel({
  open,
  onOpenChange,
  title,
  closeLabel,
  side,
  returnFocusTo,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  closeLabel: string
  side: 'left' | 'right'
  returnFocusTo: () => HTMLElement | null
  children: ReactNode
}) {
  return (
    <ModalFrame open={open} onOpenChange={onOpenChange} returnFocusTo={returnFocusTo}>
      <Dialog.Positioner
        className={css({
          position: 'fixed',
          inset: 0,
          zIndex: 50,
          display: 'flex',
          justifyContent: side === 'left' ? 'flex-start' : 'flex-end',
        })}
      >
        <Dialog.Content
          className={css({
            bg: 'surface',
            w: '80',
            maxW: '100vw',
            h: '100dvh',
            overflowY: 'auto',
            p: '4',
            boxShadow: 'raised',
            display: 'flex',
            flexDir: 'column',
            gap: '2',
          })}
        >
          <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' })}>
            <Dialog.Title className={css({ fontWeight: 'bold', fontSize: 'lg', px: '3' })}>{title}</Dialog.Title>
            <Dialog.CloseTrigger aria-label={closeLabel} className={button({ variant: 'ghost', size: 'sm' })}>
              <Icon name="close" size={22} />
            </Dialog.CloseTrigger>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Positioner>
    </ModalFrame>
  )
}
