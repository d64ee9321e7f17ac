// The course's rating summary: average to one decimal, stars, count, and a bar per star (numbers from the server).

import { Stars } from '#client/components/ui/Stars.tsx'
import { groupDigits } from '#shared/numbers.ts'
import type { RatingSummary as Summary } from '#shared/reviews.ts'
import { css } from '#styled-system/css'

export const reviewCountLabel = (count: number) => `${groupDigits(count)} ${count === 1 ? 'review' : 'reviews'}`

export function RatingSummary({ summary }: { summary: Summary }) {
  return (
    <div
      className={css({
        display: 'grid',
        gap: '6',
        gridTemplateColumns: { base: '1fr', sm: 'auto 1fr' },
        alignItems: 'center',
      })}
    >
      <div className={css({ textAlign: 'center', minW: '32' })}>
        <p data-testid="rating-average" className={css({ fontSize: '4xl', fontWeight: 'extrabold', lineHeight: '1' })}>
          {summary.count > 0 ? summary.average.toFixed(1) : '–'}
        </p>
        {summary.count > 0 ? <Stars rating={summary.average} showValue={false} /> : null}
        <p data-testid="rating-count" className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>
          {reviewCountLabel(summary.count)}
        </p>
      </div>
      <ul aria-label="Reviews per star" className={css({ display: 'grid', gap: '1.5' })}>
        {summary.stars.map(({ stars, count }) => {
          const percent = summary.count > 0 ? Math.round((count / summary.count) * 100) : 0
          return (
            <li
              key={stars}
              className={css({
                display: 'grid',
                gridTemplateColumns: '4.5rem 1fr 5.5rem',
                gap: '3',
                alignItems: 'center',
              })}
            >
              <span className={css({ fontSize: 'sm' })}>
                {stars} {stars === 1 ? 'star' : 'stars'}
              </span>
              <span aria-hidden className={css({ h: '2.5', bg: 'gray.200', borderRadius: 'full', overflow: 'hidden' })}>
                <span className={css({ display: 'block', h: 'full', bg: 'star' })} style={{ width: `${percent}%` }} />
              </span>
              <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                {groupDigits(count)} ({percent}%)
              </span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
