import { forwardRef } from 'react'
import { useSite } from '#client/lib/site.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { formatMoney } from '#shared/money.ts'
import { css, cx } from '#styled-system/css'
import { BundleOverlap } from '../bundles/BundleOverlap.tsx'
import { button } from '../ui/button.ts'
import { borderedCard } from '../ui/card.ts'
import { SafeImage } from '../ui/SafeImage.tsx'

export type CartLine = NonNullable<RouterOutputs['cart']['list']>['items'][number]

/** After a recurring line's price, what it is billed per (' / month'), on the cart and the checkout alike. */
export const perInterval = (line: Pick<CartLine, 'recurringInterval'>) =>
  line.recurringInterval ? ` / ${line.recurringInterval}` : ''

const KIND_LABEL: Record<CartLine['kind'], string> = {
  course: 'Course',
  service_package: 'Service',
  plan: 'Plan',
  bundle: 'Bundle',
}

// On a phone the line stacks: picture and title on top, price and Remove below; one row from 640 px up.
const row = cx(
  borderedCard,
  css({
    display: 'grid',
    gridTemplateColumns: { base: 'auto 1fr auto', sm: 'auto 1fr auto auto' },
    gridTemplateAreas: { base: '"image info info" "image price remove"', sm: '"image info price remove"' },
    columnGap: '4',
    rowGap: '2',
    alignItems: 'center',
    p: '4',
  }),
)

/** One cart line. The ref is its Remove button, which takes focus when the line above it is removed. */
export const CartItemRow = forwardRef<HTMLButtonElement, { line: CartLine; onRemove: () => void; removing: boolean }>(
  function CartItemRow({ line, onRemove, removing }, removeRef) {
    // On a school's own domain, a line the school does not sell is said to be so (decision 0150).
    const site = useSite()
    return (
      <li data-testid="cart-item" className={row}>
        <SafeImage
          src={line.image}
          alt=""
          className={css({
            gridArea: 'image',
            alignSelf: 'start',
            w: { base: '16', sm: '20' },
            h: { base: '12', sm: '14' },
            objectFit: 'cover',
            borderRadius: 'control',
          })}
        />
        <div className={css({ gridArea: 'info', minW: 0 })}>
          <p className={css({ fontSize: 'xs', color: 'fg.muted', textTransform: 'uppercase' })}>
            {KIND_LABEL[line.kind]}
          </p>
          <h3 className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{line.title}</h3>
          {line.detail ? <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{line.detail}</p> : null}
          <BundleOverlap overlap={line.bundleOverlap} />
          {site && line.school !== site.slug ? (
            <p className={css({ fontSize: 'sm', fontWeight: 'medium' })} data-testid="cart-item-elsewhere">
              Not sold by {site.name}
            </p>
          ) : null}
        </div>
        <p className={css({ gridArea: 'price', fontWeight: 'bold', whiteSpace: 'nowrap', textAlign: 'end' })}>
          {line.discountMinor > 0 ? (
            <>
              <s className={css({ color: 'fg.muted', fontWeight: 'normal', mr: '2' })}>
                <span className={css({ srOnly: true })}>Was </span>
                {formatMoney(line.priceMinor, line.currency)}
              </s>
              <span data-testid="discounted-price">
                {formatMoney(line.priceMinor - line.discountMinor, line.currency)}
              </span>
              <span className={css({ display: 'block', fontSize: 'xs', color: 'success', fontWeight: 'normal' })}>
                Code −{formatMoney(line.discountMinor, line.currency)}
              </span>
            </>
          ) : (
            formatMoney(line.priceMinor, line.currency)
          )}
          {perInterval(line)}
        </p>
        <button
          ref={removeRef}
          type="button"
          data-remove
          className={`${button({ variant: 'ghost', size: 'sm' })} ${css({ gridArea: 'remove', justifySelf: 'end' })}`}
          onClick={() => {
            if (!removing) onRemove()
          }}
          aria-disabled={removing}
          aria-label={`Remove ${line.title}`}
        >
          Remove
        </button>
      </li>
    )
  },
)
