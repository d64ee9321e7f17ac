// One look and behaviour for every modal dialog (Ark UI Dialog): a centred card from 640 px up, a full-screen sheet
// below it (no sideways scroll, the whole screen for the form). Ark traps focus, closes on Escape and restores focus.
import { useLayoutEffect, useRef } from 'react'
import { pageHeading } from '#client/lib/focus.ts'
import { css, cva } from '#styled-system/css'

export const dialogBackdrop = css({ position: 'fixed', inset: 0, bg: 'rgba(15,23,42,.55)', zIndex: 40 })

export const dialogPositioner = css({
  position: 'fixed',
  inset: 0,
  zIndex: 50,
  display: 'flex',
  alignItems: { base: 'stretch', sm: 'flex-start' },
  justifyContent: 'center',
  overflowY: 'auto',
  p: { base: '0', sm: '4' },
})

export const dialogContent = cva({
  base: {
    position: 'relative',
    bg: 'surface',
    boxShadow: 'raised',
    w: 'full',
    minW: 0,
    minH: { base: '100dvh', sm: 'auto' },
    borderRadius: { base: '0', sm: 'card' },
    my: { base: '0', sm: '8' },
  },
  variants: {
    size: { md: { maxW: { base: 'none', sm: 'lg' } }, wide: { maxW: { base: 'none', sm: '3xl' } } },
    padded: { true: { p: { base: '4', sm: '6' } } },
  },
  defaultVariants: { size: 'md', padded: true },
})

/**
 * For a dialog opened from code (no Ark trigger): remembers what had focus when it opened, and gives Ark the element
 * to focus when it closes: that one, or the page heading when it is gone (the row whose Delete opened it).
 */
export function useOpener(open: boolean): () => HTMLElement | null {
  const opener = useRef<HTMLElement | null>(null)
  // A layout effect runs before Ark moves focus into the dialog (its trap starts in a passive effect).
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement && document.activeElement !== document.body) {
      opener.current = document.activeElement
    }
  }, [open])
  return () => (opener.current?.isConnected ? opener.current : pageHeading())
}
