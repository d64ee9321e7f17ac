import { groupDigits } from '#shared/numbers.ts'
import { css } from '#styled-system/css'
import { Icon } from './icons.tsx'

/**
 * Whole stars out of five (spec §3), read as one phrase: "4.7 out of 5 stars", with the review count when given
 * ("4.7 out of 5 stars, 1,234 reviews"). `showValue` also prints the rating; `tone="dark"` for a dark background.
 */
export function Stars({
  rating,
  reviewCount,
  reviewsWord = false,
  showValue = true,
  tone = 'light',
}: {
  rating: number
  reviewCount?: number
  /** Show "(1,234 reviews)" rather than "(1,234)". */
  reviewsWord?: boolean
  showValue?: boolean
  tone?: 'light' | 'dark'
}) {
  const whole = Math.round(rating)
  const count = reviewCount === undefined ? undefined : groupDigits(reviewCount)
  const reviews = reviewCount === 1 ? 'review' : 'reviews'
  const label = `${rating.toFixed(1)} out of 5 stars${count === undefined ? '' : `, ${count} ${reviews}`}`
  return (
    <span role="img" aria-label={label} className={css({ display: 'inline-flex', alignItems: 'center', gap: '1' })}>
      {showValue ? (
        <span className={css({ fontWeight: 'semibold', color: tone === 'dark' ? 'amber.300' : 'warning' })}>
          {rating.toFixed(1)}
        </span>
      ) : null}
      <span className={css({ display: 'inline-flex', color: tone === 'dark' ? 'amber.300' : 'star' })}>
        {[1, 2, 3, 4, 5].map((n) => (
          <Icon key={n} name="star" size={14} filled={n <= whole} />
        ))}
      </span>
      {count === undefined ? null : (
        <span className={css({ color: tone === 'dark' ? 'inherit' : 'fg.muted', ml: '1' })}>
          ({count}
          {reviewsWord ? ` ${reviews}` : ''})
        </span>
      )}
    </span>
  )
}
