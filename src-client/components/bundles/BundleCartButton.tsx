// Add a bundle to the cart (one line), and say before paying which of its courses the buyer already holds.
import { cx } from '#styled-system/css'
import { useAddToCart } from '../cart/hooks.ts'
import { button } from '../ui/button.ts'

export function BundleCartButton({ bundleId, className }: { bundleId: string; className?: string }) {
  const { state, add } = useAddToCart({ kind: 'bundle', bundleId })
  return (
    <button
      type="button"
      className={cx(button(), className)}
      // aria-disabled, not disabled: the button keeps focus while it changes to Added (WCAG 2.4.3)
      aria-disabled={state !== 'idle'}
      onClick={() => void add()}
    >
      {state === 'adding' ? 'Adding...' : state === 'added' ? 'Added to cart' : 'Add Bundle to Cart'}
    </button>
  )
}
