import { css } from '../../../styled-system/css'
import { Icon } from './icons.tsx'

/** Whole stars out of five (spec §3), with the exact rating for screen readers; `showValue` also prints it. */
export function Stars({ rating, showValue = true }: { rating: number; showValue?: boolean }) {
  const whole = Math.round(rating)
  return (
    <span
      role="img"
      aria-label={`Rated ${rating.toFixed(1)} out of 5`}
      className={css({ display: 'inline-flex', alignItems: 'center', gap: '1' })}
    >
      {showValue ? (
        <span className={css({ fontWeight: 'semibold', color: 'warning' })}>{rating.toFixed(1)}</span>
      ) : null}
      <span className={css({ display: 'inline-flex', color: 'star' })}>
        {[1, 2, 3, 4, 5].map((n) => (
          <Icon key={n} name="star" size={14} filled={n <= whole} />
        ))}
      </span>
    </span>
  )
}
