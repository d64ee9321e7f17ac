// Drip (issue 33): the date a section or lesson opens for this learner, in their locale.
import { css } from '#styled-system/css'
import { Icon } from '../ui/icons.tsx'

export const opensOn = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' })

/** Under a section's title in the curriculum. */
export function SectionOpensOn({ unlocksAt }: { unlocksAt: string | null }) {
  if (!unlocksAt) return null
  return (
    <p data-testid="section-opens" className={css({ fontSize: 'xs', color: 'fg.muted', px: '4', pb: '1' })}>
      Opens on <time dateTime={unlocksAt}>{opensOn(unlocksAt)}</time>
    </p>
  )
}

/** In place of a dripped lesson's content. */
export function DrippedLesson({ unlocksAt }: { unlocksAt: string }) {
  return (
    <div
      className={css({ bg: 'surface', borderRadius: 'card', boxShadow: 'card', p: '8', textAlign: 'center' })}
      data-testid="dripped-lesson"
    >
      <Icon name="lock" size={32} className={css({ mx: 'auto', color: 'fg.muted' })} />
      <p className={css({ fontWeight: 'semibold', mt: '3' })}>
        This lesson opens on <time dateTime={unlocksAt}>{opensOn(unlocksAt)}</time>
      </p>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
        Its section is released on a schedule. We will e-mail you when it opens.
      </p>
    </div>
  )
}
