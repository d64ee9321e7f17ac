import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { listingCard } from '../ui/card.ts'
import { SafeImage } from '../ui/SafeImage.tsx'

export type ServiceCardData = RouterOutputs['services']['list'][number]

/** A service with its 'From' price (lowest package). `cartAction` is where the cart's button goes. */
export function ServiceCard({ service, cartAction }: { service: ServiceCardData; cartAction?: ReactNode }) {
  return (
    <article data-testid="service-card" className={listingCard}>
      <SafeImage
        src={service.image}
        alt={service.title}
        width={640}
        height={360}
        className={css({ aspectRatio: '16/9', objectFit: 'cover', w: 'full', bg: 'brand.50' })}
      />
      <div className={css({ p: '5', display: 'flex', flexDir: 'column', gap: '2', flex: 1 })}>
        <span className={css({ fontSize: 'xs', fontWeight: 'semibold', color: 'accent', textTransform: 'uppercase' })}>
          {service.category}
        </span>
        <h3 className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>
          <Link
            to="/service/$serviceId"
            params={{ serviceId: service.id }}
            className={css({ _hover: { color: 'accent' } })}
          >
            {service.title}
          </Link>
        </h3>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', lineClamp: 3 })}>{service.description}</p>
        {service.fromPriceMinor !== null ? (
          <p className={css({ mt: 'auto', pt: '2' })}>
            <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>From </span>
            <span className={css({ fontWeight: 'bold', fontSize: 'xl' })}>
              {formatMoney(service.fromPriceMinor, service.currency)}
            </span>
            {service.fromBillingInterval ? (
              <span className={css({ color: 'fg.muted' })}>/{service.fromBillingInterval}</span>
            ) : null}
          </p>
        ) : null}
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', pt: '2' })}>
          <Link
            to="/service/$serviceId"
            params={{ serviceId: service.id }}
            className={button({ variant: 'outline', size: 'sm' })}
          >
            View Details
          </Link>
          {cartAction}
        </div>
      </div>
    </article>
  )
}
