// A side panel for navigation on small screens (the shop's mobile menu, the admin sidebar). The menu button is
// plain; the panel (an Ark UI Dialog: focus trap, Escape, focus back to this button) loads on first open.
import { lazy, type ReactNode, Suspense, useRef, useState } from 'react'
import { cx } from '#styled-system/css'
import { button } from './button.ts'
import { Icon } from './icons.tsx'

const DrawerPanel = lazy(() => import('./drawer-panel.tsx'))

export function Drawer({
  open,
  onOpenChange,
  title,
  openLabel,
  closeLabel,
  side = 'right',
  triggerClassName,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  /** The menu button's accessible name, e.g. "Open menu". */
  openLabel: string
  closeLabel: string
  side?: 'left' | 'right'
  triggerClassName?: string
  children: ReactNode
}) {
  const trigger = useRef<HTMLButtonElement>(null)
  // Once loaded the panel stays mounted (closed), so Ark can hand focus back to the button when it closes.
  const [loaded, setLoaded] = useState(false)
  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-label={openLabel}
        aria-haspopup="dialog"
        aria-expanded={open}
        className={cx(button({ variant: 'ghost', size: 'sm' }), triggerClassName)}
        onClick={() => {
          setLoaded(true)
          onOpenChange(true)
        }}
      >
        <Icon name="menu" size={22} />
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <DrawerPanel
            open={open}
            onOpenChange={onOpenChange}
            title={title}
            closeLabel={closeLabel}
            side={side}
            returnFocusTo={() => trigger.current}
          >
            {children}
          </DrawerPanel>
        </Suspense>
      ) : null}
    </>
  )
}
