// A secret the server sends once (a new API key, decision 0060; a new webhook endpoint's signing secret, decision
// 0141), shown above the form whose button made it, with Copy and "I have copied it". Focus (and a screen reader)
// goes to its heading when it appears; `onDone` says where focus goes when it is put away.
import { type ReactNode, useEffect } from 'react'
import { button } from '#client/components/ui/button.ts'
import { panel as card, panelHeading as heading } from '#client/components/ui/panel.ts'
import { useCopy } from '#client/components/ui/use-copy.ts'
import { focusElement } from '#client/lib/focus.ts'
import { css } from '#styled-system/css'

export function ShownOnce({
  id,
  title,
  note,
  secret,
  copyLabel,
  testId,
  onDone,
}: {
  /** The heading's id (the region is labelled by it). */
  id: string
  title: ReactNode
  /** What to do with it, and whether it can be seen again. */
  note: ReactNode
  secret: string
  copyLabel: string
  testId: string
  onDone: () => void
}) {
  const { copied, copy } = useCopy()
  useEffect(() => {
    focusElement(document.getElementById(id))
  }, [id])
  return (
    <section aria-labelledby={id} className={card}>
      <h2 id={id} className={heading}>
        {title}
      </h2>
      <p>{note}</p>
      <code
        data-testid={testId}
        className={css({ p: '3', bg: 'canvas', borderRadius: 'md', overflowWrap: 'anywhere', fontSize: 'sm' })}
      >
        {secret}
      </code>
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <button type="button" className={button({ variant: 'outline' })} onClick={() => void copy(secret)}>
          {copied ? 'Copied' : copyLabel}
        </button>
        <button type="button" className={button()} onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  )
}
