// A service package: Add to Cart, then a disabled 'In Cart'.
import { cx } from '../../../styled-system/css'
import { button } from '../ui/button.ts'
import { useAddToCart } from './hooks.ts'

export function ServicePackageCartButton({
  packageId,
  label = 'Add to Cart',
  className,
  variant = 'primary',
}: {
  packageId: string
  label?: string
  className?: string
  variant?: 'primary' | 'outline'
}) {
  const { state, add } = useAddToCart({ kind: 'service_package', packageId })
  return (
    <button
      type="button"
      className={cx(button({ variant }), className)}
      disabled={state !== 'idle'}
      onClick={(event) => {
        event.preventDefault()
        event.stopPropagation()
        void add()
      }}
    >
      {state === 'adding' ? 'Adding...' : state === 'added' ? 'In Cart' : label}
    </button>
  )
}

/** A service card adds its cheapest package, and shows a disabled In Cart once that package is in the cart. */
export function ServiceCardCartButton({
  cheapestPackageId,
  className,
}: {
  cheapestPackageId: string
  className?: string
}) {
  return <ServicePackageCartButton packageId={cheapestPackageId} className={className} />
}
