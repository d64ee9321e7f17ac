// Header pieces fed by the server: the live cart count and the Premium badge (from the subscription state).
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { CartLink } from '../layout/CartLink.tsx'
import { badge } from '../ui/badge.ts'
import { useEntitlements } from './hooks.ts'

export function HeaderCartLink() {
  const trpc = useTRPC()
  const { data: count = 0 } = useQuery(trpc.cart.count.queryOptions())
  return <CartLink count={count} />
}

export function PremiumBadge() {
  const { data } = useEntitlements()
  if (!data?.isPremium) return null
  return (
    <span data-testid="premium-badge" className={badge({ tone: 'yellow' })}>
      Premium
    </span>
  )
}
