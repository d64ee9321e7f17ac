// Header pieces fed by the server: the live cart count and the Premium badge (from the subscription state).
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { CartLink } from '../layout/CartLink.tsx'
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
    <span
      data-testid="premium-badge"
      className={css({
        px: '2',
        py: '0.5',
        borderRadius: 'full',
        bg: 'amber.100',
        color: 'amber.800',
        fontSize: 'xs',
        fontWeight: 'bold',
      })}
    >
      Premium
    </span>
  )
}
