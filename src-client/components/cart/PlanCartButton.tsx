// A plan card: adds the plan with the chosen billing cycle; then 'Added to cart'.
import type { BillingCycleValue } from '#shared/cart.ts'
import { cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { useAddToCart } from './hooks.ts'

export function PlanCartButton({
  planId,
  billingCycle,
  label = 'Add to Cart',
  className,
  variant = 'primary',
}: {
  planId: string
  billingCycle: BillingCycleValue
  label?: string
  className?: string
  variant?: 'primary' | 'outline'
}) {
  const { state, add } = useAddToCart({ kind: 'plan', planId, billingCycle })
  return (
    <button
      type="button"
      className={cx(button({ variant }), className)}
      // aria-disabled, not disabled: the button keeps focus while it changes to Added (WCAG 2.4.3)
      aria-disabled={state !== 'idle'}
      onClick={() => void add()}
    >
      {state === 'adding' ? 'Adding...' : state === 'added' ? 'Added to cart' : label}
    </button>
  )
}
