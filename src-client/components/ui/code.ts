import { css } from '#styled-system/css'

/** A value to copy exactly (a DNS record's name or value, a key): monospaced on a grey box, wrapped anywhere. */
export const codeBlock = css({
  fontFamily: 'mono',
  fontSize: 'sm',
  bg: 'gray.100',
  px: '2',
  py: '1',
  borderRadius: 'sm',
  overflowWrap: 'anywhere',
  display: 'block',
})
