import { Link } from '@tanstack/react-router'
import { css } from '#styled-system/css'
import { Icon } from '../ui/icons.tsx'

/** Cart icon with an item-count badge; the count is the signed-in user's server cart. */
export function CartLink({ count }: { count: number }) {
  const label = count === 1 ? 'Cart, 1 item' : `Cart, ${count} items`
  return (
    <Link
      to="/cart"
      aria-label={label}
      data-testid="cart-link"
      className={css({
        position: 'relative',
        display: 'inline-flex',
        p: '2',
        borderRadius: 'control',
        _hover: { bg: 'brand.50' },
      })}
    >
      <Icon name="cart" size={22} />
      {count > 0 ? (
        <span
          data-testid="cart-count"
          className={css({
            position: 'absolute',
            top: '0',
            right: '0',
            minW: '5',
            h: '5',
            px: '1',
            borderRadius: 'full',
            bg: 'accent',
            color: 'white',
            fontSize: 'xs',
            fontWeight: 'bold',
            display: 'grid',
            placeItems: 'center',
          })}
        >
          {count}
        </span>
      ) : null}
    </Link>
  )
}
