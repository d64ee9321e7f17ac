// The analytics pages' controls (the date range, the course picker): taller than the forms' default, for a thumb.
import { controlStates } from '#client/components/ui/form.tsx'
import { css, cx } from '#styled-system/css'

export const analyticsControl = cx(
  css({ h: '11', px: '2', borderWidth: '1px', borderColor: 'line', borderRadius: 'md', bg: 'surface', fontSize: 'sm' }),
  controlStates,
)
