import { type ReactNode, useRef } from 'react'
import { useFocusWhenLost } from '#client/lib/focus.ts'
import { css, cx } from '#styled-system/css'
import { borderedCard } from '../ui/card.ts'

/**
 * One titled card on the account page. `phase` names what the card shows (e.g. off, setting up, on): when it changes
 * and took the focused button with it, focus goes to the new content's `[data-refocus]` element, else its first field
 * or button (useFocusWhenLost).
 */
export function SectionCard({
  title,
  description,
  phase,
  children,
}: {
  title: string
  description?: ReactNode
  phase?: string
  children: ReactNode
}) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`
  const section = useRef<HTMLElement>(null)
  useFocusWhenLost(phase, () => {
    const content = section.current?.lastElementChild
    return content?.querySelector<HTMLElement>('[data-refocus]') ?? content?.querySelector<HTMLElement>('input, button')
  })
  return (
    <section ref={section} aria-labelledby={id} className={cx(borderedCard, css({ p: { base: '5', md: '6' } }))}>
      <h2 id={id} className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
        {title}
      </h2>
      {description ? <p className={css({ mt: '1', color: 'fg.muted', fontSize: 'sm' })}>{description}</p> : null}
      <div className={css({ mt: '5' })}>{children}</div>
    </section>
  )
}

/** One listed item on the security page (a signed-in session, a passkey): its text, then its action. */
export const securityRow = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '3',
  alignItems: 'center',
  justifyContent: 'space-between',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  p: '3',
})
