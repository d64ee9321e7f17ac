import { cva, type RecipeVariantProps } from '#styled-system/css'

/** One button look for the whole app; apply to <button>, <a> or a router <Link>. */
export const button = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'semibold',
    borderRadius: 'control',
    cursor: 'pointer',
    transition: 'background 0.15s, color 0.15s, border-color 0.15s',
    whiteSpace: 'nowrap',
    // Disabled (or aria-disabled while it keeps focus) reads as grey text on grey, still 4.5:1, not faded.
    _disabled: { bg: 'gray.200', color: 'gray.700', borderColor: 'gray.300', cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      primary: { bg: 'accent', color: 'white', _hover: { _enabled: { bg: 'accent.hover' } } },
      outline: { borderWidth: '1px', borderColor: 'line', bg: 'surface', color: 'fg', _hover: { bg: 'brand.50' } },
      ghost: { bg: 'transparent', color: 'fg', _hover: { bg: 'brand.50' } },
      light: { bg: 'white', color: 'brand.700', _hover: { bg: 'brand.50' } },
      danger: { bg: 'danger', color: 'white', _hover: { opacity: 0.9 } },
    },
    size: {
      sm: { h: '8', px: '3', fontSize: 'sm' },
      // 44 px on phones (a primary action's touch target), 40 px from 768 px up.
      md: { h: { base: '11', md: '10' }, px: '4', fontSize: 'sm' },
      lg: { h: '12', px: '6', fontSize: 'md' },
    },
    // A long label may take two lines on a 320 px screen rather than push the page sideways.
    wrap: { true: { whiteSpace: 'normal', h: 'auto', minH: '11', py: '2', textAlign: 'center' } },
  },
  // A small primary action (Add to Cart on a card, Mark paid) is still a 44 px touch target on a phone.
  compoundVariants: [{ variant: 'primary', size: 'sm', css: { h: { base: '11', md: '8' } } }],
  defaultVariants: { variant: 'primary', size: 'md' },
})
export type ButtonVariants = RecipeVariantProps<typeof button>
