// Drip (issue 33): the date a section or lesson opens for this learner (formatDate's long day, UTC).

import type { ReactNode } from 'react'
import { formatDate } from '#shared/dates.ts'
import { css, cx } from '#styled-system/css'
import { raisedCard } from '../ui/card.ts'
import { Icon } from '../ui/icons.tsx'

export const opensOn = (iso: string) => formatDate(iso)

/** Under a section's title in the curriculum. */
export function SectionOpensOn({ unlocksAt }: { unlocksAt: string | null }) {
  if (!unlocksAt) return null
  return (
    <p data-testid="section-opens" className={css({ fontSize: 'xs', color: 'fg.muted', px: '4', pb: '1' })}>
      Opens on <time dateTime={unlocksAt}>{opensOn(unlocksAt)}</time>
    </p>
  )
}

/** In place of a lesson's content the learner cannot open (yet): a lock, why, what to do; then an action, if any. */
export function LessonLock({
  testId,
  title,
  note,
  children,
}: {
  testId: string
  title: ReactNode
  note: ReactNode
  children?: ReactNode
}) {
  return (
    <div className={cx(raisedCard, css({ p: '8', textAlign: 'center' }))} data-testid={testId}>
      <Icon name="lock" size={32} className={css({ mx: 'auto', color: 'fg.muted' })} />
      <p className={css({ fontWeight: 'semibold', mt: '3' })}>{title}</p>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>{note}</p>
      {children}
    </div>
  )
}

/** In place of a dripped lesson's content. */
export function DrippedLesson({ unlocksAt }: { unlocksAt: string }) {
  return (
    <LessonLock
      testId="dripped-lesson"
      title={
        <>
          This lesson opens on <time dateTime={unlocksAt}>{opensOn(unlocksAt)}</time>
        </>
      }
      note="Its section is released on a schedule. We will e-mail you when it opens."
    />
  )
}
