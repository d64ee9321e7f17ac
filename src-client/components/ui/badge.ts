// The app's pill: a short status or label in a tinted, rounded box (an order's status, a coupon's state, Premium).
import { cva } from '#styled-system/css'

export const badge = cva({
  base: { display: 'inline-flex', px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: 'semibold' },
  variants: {
    tone: {
      green: { bg: '#dcfce7', color: '#166534' },
      yellow: { bg: '#fef9c3', color: '#854d0e' },
      red: { bg: '#fee2e2', color: '#991b1b' },
      blue: { bg: 'brand.100', color: 'brand.700' },
      grey: { bg: '#f1f5f9', color: '#334155' },
    },
  },
  defaultVariants: { tone: 'grey' },
})
