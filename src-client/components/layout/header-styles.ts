import { css, cx } from '#styled-system/css'

export const navLink = css({
  px: '3',
  py: '2',
  borderRadius: 'control',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  _hover: { color: 'fg', bg: 'brand.50' },
  '&[data-status=active]': { color: 'accent' },
})

/** The Browse menu's trigger, and the stand-in that looks the same until the menu is loaded. */
export const browseTrigger = cx(
  navLink,
  css({ display: 'inline-flex', alignItems: 'center', gap: '1', cursor: 'pointer' }),
)
