// Order summary of one currency group, as the server computed it: item count, subtotal, tax, total.
import type { ReactNode } from 'react'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { borderedCard } from '../ui/card.ts'

export type CurrencyTotal = NonNullable<RouterOutputs['cart']['list']>['totals'][number]

const row = css({ display: 'flex', justifyContent: 'space-between', py: '1', fontSize: 'sm' })

export function CartSummary({ total, children }: { total: CurrencyTotal; children?: ReactNode }) {
  return (
    <section
      aria-label={`Order summary (${total.currency})`}
      data-testid={`summary-${total.currency}`}
      className={cx(borderedCard, css({ p: '5' }))}
    >
      <h2 className={css({ fontWeight: 'bold', mb: '3' })}>Order Summary ({total.currency})</h2>
      <div className={row}>
        <span>Items</span>
        <span>{total.itemCount}</span>
      </div>
      <div className={row}>
        <span>Subtotal</span>
        <span>{formatMoney(total.subtotalMinor, total.currency)}</span>
      </div>
      {total.discountMinor > 0 ? (
        <div className={row} data-testid={`discount-${total.currency}`}>
          <span>Discount</span>
          <span>−{formatMoney(total.discountMinor, total.currency)}</span>
        </div>
      ) : null}
      <div className={row}>
        <span>Tax</span>
        <span>{formatMoney(total.taxMinor, total.currency)}</span>
      </div>
      <div
        className={`${row} ${css({ borderTopWidth: '1px', borderColor: 'line', mt: '2', pt: '2', fontWeight: 'bold' })}`}
      >
        <span>Total</span>
        <span data-testid={`total-${total.currency}`}>{formatMoney(total.totalMinor, total.currency)}</span>
      </div>
      {children}
    </section>
  )
}
