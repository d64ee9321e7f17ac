// Coupons with what each covers and asks (minimum cart, first purchase only), their uses (paid orders), uses held by
// orders awaiting payment, revenue per currency, and where each stands now (the server works the status out by the
// rules Apply code follows: a code past its end says Ended, one whose uses are all taken Used up, a creator's own code
// while their plan lacks coupons Paused).

import type { RouterOutputs } from '#client/lib/types.ts'
import { formatDate } from '#shared/dates.ts'
import { formatMoney } from '#shared/money.ts'
import { COUPON_SCOPE_LABELS, COUPON_STATUS_LABELS, type CouponStatus } from '#shared/promotions.ts'
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

/** What the code takes its discount off: the chosen courses by title, the creator's courses, or the scope. */
function coversOf(coupon: Coupon, studio: boolean): string {
  if (coupon.appliesTo === 'courses') return coupon.courses.map((course) => course.title).join(', ')
  if (coupon.appliesTo === 'creator') {
    return studio ? 'All your courses' : `All courses by ${coupon.creatorName ?? 'a creator'}`
  }
  return COUPON_SCOPE_LABELS[coupon.appliesTo]
}

/** What a buyer must meet: the minimum cart (per currency) and first purchase only. */
function conditionsOf(coupon: Coupon): string {
  const minimums = Object.entries(coupon.minAmounts).map(
    ([currency, minor]) => `Minimum cart ${formatMoney(minor ?? 0, currency)}`,
  )
  const all = [...minimums, ...(coupon.firstPurchaseOnly ? ['First purchase only'] : [])]
  return all.length ? all.join(' · ') : '—'
}

const TONES: Record<CouponStatus, 'green' | 'blue' | 'grey' | 'yellow'> = {
  active: 'green',
  scheduled: 'blue',
  paused: 'yellow',
  ended: 'grey',
  usedUp: 'grey',
  off: 'grey',
}

export function CouponTable({
  coupons,
  onToggle,
  busy,
  studio = false,
}: {
  coupons: readonly Coupon[]
  /** Disable (or enable) a coupon; absent when the viewer may not. */
  onToggle?: (coupon: Coupon) => void
  busy?: boolean
  /** The creator's own table: a code for all their courses reads "All your courses". */
  studio?: boolean
}) {
  return (
    <AdminTable
      scrollLabel="Coupons"
      columns={[
        'Code',
        'Discount',
        'Applies to',
        'Conditions',
        'Valid',
        'Limit',
        'Uses',
        'Held',
        'Revenue',
        'Status',
        onToggle ? 'Actions' : null,
      ]}
    >
      {coupons.map((coupon) => (
        <tr key={coupon.id} data-testid="coupon-row">
          <td>
            <strong>{coupon.code}</strong>
          </td>
          <td>{discountOf(coupon)}</td>
          <td data-testid="coupon-covers">{coversOf(coupon, studio)}</td>
          <td data-testid="coupon-conditions">{conditionsOf(coupon)}</td>
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
          <td data-testid="coupon-status">
            <span className={badge({ tone: TONES[coupon.status] })}>{COUPON_STATUS_LABELS[coupon.status]}</span>
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
