// Orders and net revenue of the last 30 days, one chart per currency: what the orders took less what was given back
// of it since (decision 0133), said on the card.

import { TitledSection } from '#client/components/ui/layout.tsx'
import { countOf } from '#client/lib/format.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css } from '#styled-system/css'
import { SalesChart } from './SalesChart.tsx'
import { panel } from './styles.ts'

type Sales = RouterOutputs['admin']['dashboard']['summary']['sales']

export function SalesPanel({ sales }: { sales: Sales }) {
  return (
    <TitledSection
      id="sales-title"
      title="Last 30 days"
      className={`${panel} ${css({ mt: '6', p: '5' })}`}
      titleClassName={css({ fontWeight: 'semibold' })}
    >
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '1' })}>
        <span data-testid="orders-placed">{sales.ordersPlaced}</span> {sales.ordersPlaced === 1 ? 'order' : 'orders'}{' '}
        placed
      </p>
      <p className={css({ color: 'fg.muted', fontSize: 'xs', mb: '4' })} data-testid="sales-rule">
        Net revenue: what the orders paid in these 30 days took (tax included), less what has been refunded of it since
        (refunds and lost disputes), on the day each order was paid. An order refunded since still counts as paid.
      </p>
      {sales.series.length === 0 ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>No paid orders in the last 30 days.</p>
      ) : (
        <div className={css({ display: 'grid', gap: '6' })}>
          {sales.series.map((line) => (
            <div key={line.currency} data-testid={`sales-${line.currency}`}>
              <p className={css({ fontSize: 'sm', mb: '2' })}>
                <strong>{formatMoney(line.revenueMinor, line.currency)}</strong> net revenue ({line.currency}) from{' '}
                {countOf(line.orders, 'paid order')}
              </p>
              <SalesChart currency={line.currency} points={line.points} />
            </div>
          ))}
        </div>
      )}
    </TitledSection>
  )
}
