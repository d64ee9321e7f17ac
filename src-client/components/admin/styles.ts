// Shared looks of the admin screens (tables, row links, form fields), so each screen stays short. The app's pill,
// which the admin screens use most, is ui/badge.ts.
import { css, cx } from '#styled-system/css'
import { controlBox, controlStates } from '../ui/form.tsx'
import { stickyFirstColumn } from '../ui/ScrollRegion.tsx'

export const pageTitle = css({ fontSize: '2xl', fontWeight: 'bold' })
export const pageHead = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '4',
  flexWrap: 'wrap',
  mb: '6',
})
// A panel's table scrolls inside its own region (ScrollRegion), so the page never scrolls sideways on a phone.
export const panel = css({
  bg: 'surface',
  borderWidth: '1px',
  borderColor: 'line',
  borderRadius: 'card',
  // Relative: the containing block of the visually hidden labels inside, which would otherwise widen the page.
  overflowX: 'auto',
  position: 'relative',
})
/** A section of a detail page (an order, an application, a submission): a panel with its content in a column. */
export const detailSection = `${panel} ${css({ p: '5', display: 'flex', flexDir: 'column', gap: '3' })}`
export const table = cx(
  stickyFirstColumn,
  css({
    w: 'full',
    fontSize: 'sm',
    borderCollapse: 'collapse',
    '& th': {
      textAlign: 'left',
      fontWeight: 'semibold',
      color: 'fg.muted',
      px: '4',
      py: '3',
      borderBottomWidth: '1px',
      borderColor: 'line',
    },
    '& td': { px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'line', verticalAlign: 'middle' },
    '& tr:last-child td': { borderBottomWidth: 0 },
  }),
)
/** A queue's row link to the item's own screen (the order, the course under review, the application). */
export const rowLink = css({ color: 'accent', fontWeight: 'medium' })
/** A field's column (label, control, message), for a field box given more layout (ui/form.tsx draws the fields). */
export const fieldBox = css({ display: 'flex', flexDir: 'column', gap: '1' })
export const inputClass = cx(controlBox, css({ fontWeight: 'normal' }), controlStates)
export const iconButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  w: '8',
  h: '8',
  borderRadius: 'control',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { bg: 'brand.50', color: 'fg' },
  _disabled: { opacity: 0.5, cursor: 'not-allowed' },
})
export const errorText = css({ color: 'danger', fontSize: 'sm' })
