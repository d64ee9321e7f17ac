// The frame of the storefront's preview dialogs (a course from a card, a lesson from the curriculum): backdrop,
// a centred scrollable panel (a full-screen sheet on a phone), a "Close preview" button, focus back to the opener when it closes.
import { Dialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'
import { dialogBackdrop, dialogContent, dialogPositioner } from './dialog.ts'
import { Icon } from './icons.tsx'

export { Dialog }

export function PreviewDialogFrame({
  onClose,
  returnFocusTo,
  className,
  children,
}: {
  onClose: () => void
  /** The button that opened it, which gets focus back when the dialog closes. */
  returnFocusTo: () => HTMLElement | null
  /** Width and padding of the panel. */
  className?: string
  children: ReactNode
}) {
  return (
    <Dialog.Root defaultOpen onOpenChange={(details) => !details.open && onClose()} finalFocusEl={returnFocusTo}>
      <Portal>
        <Dialog.Backdrop className={dialogBackdrop} />
        <Dialog.Positioner className={dialogPositioner}>
          {/* A full-screen sheet below 640 px (ui/dialog.ts); from there up a centred panel that scrolls. */}
          <Dialog.Content
            className={cx(
              dialogContent({ padded: false }),
              css({ maxH: { sm: '90vh' }, overflowY: 'auto', alignSelf: { sm: 'center' } }),
              className,
            )}
          >
            {children}
            <Dialog.CloseTrigger
              aria-label="Close preview"
              className={css({
                position: 'absolute',
                top: '3',
                right: '3',
                bg: 'surface',
                borderRadius: 'full',
                p: '1',
                cursor: 'pointer',
              })}
            >
              <Icon name="close" size={18} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
