// One section of an analytics page: a panel titled by its heading (the landmark's name), an optional line under the
// heading (a muted explanation, or the section's figures with a test id), then its charts and tables.
import type { ReactNode } from 'react'
import { panel, panelHeading } from '#client/components/ui/panel.ts'
import { css } from '#styled-system/css'

export function AnalyticsSection({
  id,
  title,
  note,
  summary,
  summaryTestId,
  children,
}: {
  /** The heading's id is `${id}-heading`. */
  id: string
  title: string
  /** A muted explanation under the heading. */
  note?: ReactNode
  /** The section's figures in a sentence under the heading. */
  summary?: ReactNode
  summaryTestId?: string
  children?: ReactNode
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={panel}>
      <h2 id={`${id}-heading`} className={panelHeading}>
        {title}
      </h2>
      {note ? <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{note}</p> : null}
      {summary ? (
        <p className={css({ fontSize: 'sm' })} data-testid={summaryTestId}>
          {summary}
        </p>
      ) : null}
      {children}
    </section>
  )
}
