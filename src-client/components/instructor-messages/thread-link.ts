// A conversation's link in a list of them (the member's Messages page, the studio's inbox): a long unbroken subject
// wraps rather than widening the page past a phone's width.
import { css } from '#styled-system/css'

export const threadLink = css({
  color: 'accent',
  fontWeight: 'semibold',
  textDecoration: 'underline',
  overflowWrap: 'anywhere',
})
