// A table wider than the screen scrolls inside its own labelled region, never the page. The region is focusable
// so keyboard users can scroll it with the arrow keys (WCAG 2.1.1), and it is the containing block of the
// visually hidden labels inside (else an absolutely positioned one escapes the scroller and widens the page).
import type { ReactNode } from 'react'
import { css, cx } from '#styled-system/css'

export function ScrollRegion({
  label,
  children,
  className,
}: {
  label: string
  children: ReactNode
  className?: string
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cx(css({ overflowX: 'auto', position: 'relative', maxW: 'full' }), className)}
    >
      {children}
    </section>
  )
}

/** A table whose first column (what each row is) stays in view while the rest scrolls sideways. */
export const stickyFirstColumn = css({
  '& :is(th, td):first-child': { position: 'sticky', left: 0, zIndex: 1, bg: 'surface' },
})
