// A studio tab (the studio's navigation, a course's Details / Curriculum / Publish / Preview): muted until hovered,
// underlined in the accent colour on its own page (the router marks the link aria-current="page"; `active` where a
// link stands for more pages than its own).
import { css } from '#styled-system/css'

export const studioTab = css({
  display: 'inline-flex',
  alignItems: 'center',
  minH: '11',
  px: '3',
  fontSize: 'sm',
  fontWeight: 'semibold',
  color: 'fg.muted',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  whiteSpace: 'nowrap',
  _hover: { color: 'fg' },
  '&[aria-current=page], &.active': { color: 'fg', borderColor: 'accent' },
})
