import type { ReactNode } from 'react'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { CheckList } from '../ui/CheckList.tsx'
import { offerCard } from '../ui/card.ts'
import { Icon } from '../ui/icons.tsx'
import { PopularBadge } from '../ui/PopularBadge.tsx'

export type ServicePackage = NonNullable<RouterOutputs['services']['byId']>['packages'][number]

/** One package of a service. `cartAction` is where the cart's Add to Cart / In Cart button goes. */
export function PackageCard({
  pkg,
  popular,
  cartAction,
}: {
  pkg: ServicePackage
  popular: boolean
  cartAction?: ReactNode
}) {
  return (
    <article
      data-testid="package-card"
      className={cx(
        offerCard,
        css({ gap: '3', borderColor: 'transparent' }),
        popular ? css({ borderColor: 'accent' }) : undefined,
      )}
    >
      {popular ? <PopularBadge>Most Popular</PopularBadge> : null}
      <h3 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{pkg.name}</h3>
      <p>
        <span className={css({ fontSize: '3xl', fontWeight: 'extrabold' })}>
          {formatMoney(pkg.priceMinor, pkg.currency)}
        </span>
        {pkg.billingInterval === 'month' ? <span className={css({ color: 'fg.muted' })}>/month</span> : null}
      </p>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{pkg.description}</p>
      <CheckList items={pkg.features} />
      <p className={css({ fontSize: 'sm', display: 'flex', gap: '2', alignItems: 'center', color: 'fg.muted' })}>
        <Icon name="clock" size={16} /> Processing time: {pkg.processingTime}
      </p>
      {cartAction}
    </article>
  )
}
