// "Skip to content": the first thing Tab reaches on every page. It moves focus to the page's <main> (in the admin
// area, past the sidebar), so the next Tab is the page's first control, not the header's.

import { focusElement } from '#client/lib/focus.ts'
import { css } from '#styled-system/css'

export function SkipLink() {
  return (
    // biome-ignore lint/a11y/useValidAnchor: a real in-page link (#main) that also moves focus to <main>
    <a
      href="#main"
      onClick={(event) => {
        if (focusElement(document.querySelector<HTMLElement>('main'))) event.preventDefault()
      }}
      className={css({
        position: 'fixed',
        left: '4',
        top: '-20',
        zIndex: 60,
        bg: 'surface',
        color: 'brand.700',
        fontWeight: 'semibold',
        px: '4',
        py: '3',
        borderRadius: 'control',
        // The shadow only when shown: off-screen, it would still bleed into the top of the page.
        _focus: { top: '4', boxShadow: 'raised' },
      })}
    >
      Skip to content
    </a>
  )
}
