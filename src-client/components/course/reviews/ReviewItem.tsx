import { Stars } from '#client/components/ui/Stars.tsx'
import { useDateFormat } from '#client/lib/local-date.ts'
import type { RouterOutputs } from '#client/lib/types.ts'
import { css } from '#styled-system/css'

export type Review = RouterOutputs['reviews']['list']['items'][number]

/** One review: stars, the learner's first name and last initial, the date, the text. */
export function ReviewItem({ review }: { review: Review }) {
  const formatDate = useDateFormat()
  return (
    <article data-testid="review-item" className={css({ display: 'grid', gap: '1' })}>
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
        <Stars rating={review.rating} showValue={false} />
        <span className={css({ fontWeight: 'semibold' })}>{review.author}</span>
        <time dateTime={review.createdAt} className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {formatDate(review.createdAt)}
          {review.edited ? ' (edited)' : ''}
        </time>
      </div>
      {review.body ? <p className={css({ whiteSpace: 'pre-line' })}>{review.body}</p> : null}
    </article>
  )
}
