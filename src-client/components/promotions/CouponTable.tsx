// Coupons with their uses (paid orders), uses held by orders awaiting payment, and revenue per currency.

import type { RouterOutputs } from '#client/lib/types.ts'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { AdminTable } from '../admin/AdminTable.tsx'
import { badge } from '../ui/badge.ts'
import { button } from '../ui/button.ts'

type Coupon = RouterOutputs['admin']['coupons']['list'][number]

function discountOf(coupon: Coupon): string {
  if (coupon.kind === 'percent') return `${coupon.percentOff} %`
  return Object.entries(coupon.amountsOff)
    .map(([currency, minor]) => formatMoney(minor ?? 0, currency))
    .join(' / ')
}

const when = (iso: string | null) => (iso ? formatDate(iso, 'mediumTime') : '—')

export function CouponTable({
  coupons,
  onToggle,
  busy,
  paused = false,
}: {
  coupons: readonly Coupon[]
  /** Disable (or enable) a coupon; absent when the viewer may not. */
  onToggle?: (coupon: Coupon) => void
  busy?: boolean
  /** The owner's plan no longer includes coupons: an active code is not offered to buyers until it does again. */
  paused?: boolean
}) {
  return (
    <AdminTable
      scrollLabel="Coupons"
      columns={['Code', 'Discount', 'Valid', 'Limit', 'Uses', 'Held', 'Revenue', 'Status', onToggle ? 'Actions' : null]}
    >
      {coupons.map((coupon) => (
        <tr key={coupon.id} data-testid="coupon-row">
          <td>
            <strong>{coupon.code}</strong>
          </td>
          <td>{discountOf(coupon)}</td>
          <td>
            {when(coupon.startsAt)} – {when(coupon.endsAt)}
          </td>
          <td>
            {coupon.maxUses ?? 'No limit'}
            {coupon.maxUsesPerCustomer ? ` (${coupon.maxUsesPerCustomer} each)` : ''}
          </td>
          <td data-testid="coupon-uses">{coupon.uses}</td>
          <td>{coupon.held}</td>
          <td data-testid="coupon-revenue">
            {coupon.revenue.length
              ? coupon.revenue.map((entry) => formatMoney(entry.amountMinor, entry.currency)).join(' · ')
              : '—'}
          </td>
          <td>
            <span className={badge({ tone: coupon.active ? (paused ? 'yellow' : 'green') : 'grey' })}>
              {coupon.active ? (paused ? 'Paused' : 'Active') : 'Off'}
            </span>
          </td>
          {onToggle ? (
            <td>
              <button
                type="button"
                className={button({ variant: 'outline', size: 'sm' })}
                // aria-disabled, not disabled: the button keeps focus while it changes to Enable/Disable (WCAG 2.4.3)
                onClick={() => (busy ? undefined : onToggle(coupon))}
                aria-disabled={busy}
                aria-label={`${coupon.active ? 'Disable' : 'Enable'} ${coupon.code}`}
              >
                {coupon.active ? 'Disable' : 'Enable'}
              </button>
            </td>
          ) : null}
        </tr>
      ))}
    </AdminTable>
  )
}
