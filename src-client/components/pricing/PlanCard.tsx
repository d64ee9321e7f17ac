import type { ReactNode } from 'react'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { CheckList } from '../ui/CheckList.tsx'
import { offerCard } from '../ui/card.ts'
import { PopularBadge } from '../ui/PopularBadge.tsx'

export type Plan = RouterOutputs['plans']['list']['plans'][number]
export type BillingCycle = 'monthly' | 'annual'

/** A plan at the chosen billing cycle. `cartAction` is where the cart's button goes ('Added to cart'). */
export function PlanCard({ plan, cycle, cartAction }: { plan: Plan; cycle: BillingCycle; cartAction?: ReactNode }) {
  const price = cycle === 'annual' ? plan.annualPriceMinor : plan.monthlyPriceMinor
  return (
    <article
      data-testid="plan-card"
      className={cx(
        offerCard,
        css({ gap: '4', borderColor: 'transparent' }),
        plan.isPopular ? css({ borderColor: 'accent', boxShadow: 'raised' }) : undefined,
      )}
    >
      {plan.badge ? <PopularBadge>{plan.badge}</PopularBadge> : null}
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{plan.name}</h2>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{plan.description}</p>
      <p>
        <span className={css({ fontSize: '4xl', fontWeight: 'extrabold' })} data-testid="plan-price">
          {formatMoney(price, plan.currency)}
        </span>
        <span className={css({ color: 'fg.muted' })}>{cycle === 'annual' ? '/year' : '/month'}</span>
      </p>
      <CheckList items={plan.features} />
      {cartAction}
    </article>
  )
}
