// The look of every drop-down menu (Ark UI Menu): the panel and its items.
import { css } from '#styled-system/css'

export const menuContent = css({
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'control',
  boxShadow: 'raised',
  p: '1',
  minW: '48',
  outline: 'none',
  zIndex: 30,
})

export const menuItem = css({
  display: 'block',
  px: '3',
  py: '2',
  borderRadius: 'control',
  fontSize: 'sm',
  cursor: 'pointer',
  _highlighted: { bg: 'brand.50', color: 'accent' },
})
