import { formatMoney } from '../../../src-shared/money.ts'
import { css } from '../../../styled-system/css'
import type { RouterOutputs } from '../../lib/types.ts'
import { button } from '../ui/button.ts'
import { SafeImage } from '../ui/SafeImage.tsx'

export type CartLine = NonNullable<RouterOutputs['cart']['list']>['items'][number]

const KIND_LABEL: Record<CartLine['kind'], string> = { course: 'Course', service_package: 'Service', plan: 'Plan' }

export function CartItemRow({ line, onRemove, removing }: { line: CartLine; onRemove: () => void; removing: boolean }) {
  return (
    <li
      data-testid="cart-item"
      className={css({
        display: 'flex',
        gap: '4',
        alignItems: 'center',
        p: '4',
        bg: 'surface',
        borderWidth: '1px',
        borderColor: 'line',
        borderRadius: 'card',
      })}
    >
      <SafeImage
        src={line.image}
        alt=""
        className={css({ w: '20', h: '14', objectFit: 'cover', borderRadius: 'control', flexShrink: 0 })}
      />
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontSize: 'xs', color: 'fg.muted', textTransform: 'uppercase' })}>
          {KIND_LABEL[line.kind]}
        </p>
        <h3 className={css({ fontWeight: 'semibold' })}>{line.title}</h3>
        {line.detail ? <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{line.detail}</p> : null}
      </div>
      <p className={css({ fontWeight: 'bold', whiteSpace: 'nowrap' })}>
        {formatMoney(line.priceMinor, line.currency)}
        {line.recurringInterval ? ` / ${line.recurringInterval}` : ''}
      </p>
      <button
        type="button"
        className={button({ variant: 'ghost', size: 'sm' })}
        onClick={onRemove}
        disabled={removing}
        aria-label={`Remove ${line.title}`}
      >
        Remove
      </button>
    </li>
  )
}
