// Service packages: Add to Cart, then a disabled 'In Cart'; a service card adds its cheapest package.
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { useAddToCart } from './hooks.ts'

export function ServicePackageCartButton({
  packageId,
  label = 'Add to Cart',
  className,
  variant = 'primary',
  size = 'md',
}: {
  packageId: string
  label?: string
  className?: string
  variant?: 'primary' | 'outline'
  size?: 'sm' | 'md' | 'lg'
}) {
  const { state, add } = useAddToCart({ kind: 'service_package', packageId })
  return (
    <button
      type="button"
      className={cx(button({ variant, size }), className)}
      // aria-disabled, not disabled: the button keeps focus while it changes to Added (WCAG 2.4.3)
      aria-disabled={state !== 'idle'}
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
  serviceId,
  className,
  size = 'sm',
}: {
  serviceId: string
  className?: string
  size?: 'sm' | 'md' | 'lg'
}) {
  const trpc = useTRPC()
  const { data } = useQuery({ ...trpc.cart.cheapestPackages.queryOptions(), staleTime: 5 * 60_000 })
  const packageId = data?.[serviceId]
  if (!packageId) return null
  return <ServicePackageCartButton packageId={packageId} className={className} size={size} />
}
