// On a school's own domain only that school's lines are paid for (decision 0150): where a checkout would hold what
// others sell, the cart and the checkout say so, with the way to the marketplace's cart, instead of offering a payment
// the server refuses.
import { type SchoolSite, useSite } from '#client/lib/site.ts'
import { PAYMENT_MESSAGES } from '#shared/cart.ts'
import { css } from '#styled-system/css'
import type { CartLine } from './CartItemRow.tsx'

/** Whether these lines hold any this school's site does not sell (never on the marketplace's own host). */
export function holdsOtherSellers(lines: readonly Pick<CartLine, 'school'>[], site: SchoolSite | null): boolean {
  return site !== null && lines.some((line) => line.school !== site.slug)
}

export function OtherSellersNote({ lines }: { lines: CartLine[] }) {
  const site = useSite()
  if (!site || !holdsOtherSellers(lines, site)) return null
  return (
    <p role="alert" data-testid="other-sellers" className={css({ color: 'danger', fontSize: 'sm', mt: '3' })}>
      {PAYMENT_MESSAGES.otherSellers}{' '}
      <a href={`${site.marketplaceUrl}/cart`} className={css({ textDecoration: 'underline', fontWeight: 'semibold' })}>
        Open your cart on the marketplace
      </a>
    </p>
  )
}
