// A settings or figures panel as the studio, analytics and member pages draw them: a bordered surface with a heading.
import { css, cx } from '#styled-system/css'
import { borderedCard } from './card.ts'

/** The panel's bordered, padded surface alone, for a panel that lays out its content its own way. */
export const panelSurface = css({
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'lg',
  p: { base: '4', md: '5' },
})

export const panel = cx(panelSurface, css({ display: 'flex', flexDir: 'column', gap: '4', minW: 0 }))

export const panelHeading = css({ fontSize: 'lg', fontWeight: 'semibold', overflowWrap: 'anywhere' })

/** A studio page's card (publishing, team, uploads): a bordered surface, roomier on wide screens; what is inside lays
 * itself out. */
export const studioCard = cx(borderedCard, css({ p: { base: '4', md: '6' } }))
