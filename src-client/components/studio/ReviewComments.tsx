// Staff comments on a submission, one per item: the creator's publish page and the staff review screen show them.
import { reviewItemLabel } from '#shared/course-review.ts'
import { css } from '#styled-system/css'

export function ReviewComments({ comments }: { comments: { item: string; comment: string }[] }) {
  if (comments.length === 0) return null
  return (
    <ul className={css({ mt: '3', display: 'flex', flexDir: 'column', gap: '2' })} data-testid="review-comments">
      {comments.map((entry, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: comments are a fixed list, never reordered
          key={index}
          className={css({ borderLeftWidth: '3px', borderColor: 'warning', pl: '3' })}
        >
          <span className={css({ fontWeight: 'semibold' })}>{reviewItemLabel(entry.item)}:</span>{' '}
          <span className={css({ whiteSpace: 'pre-line' })}>{entry.comment}</span>
        </li>
      ))}
    </ul>
  )
}
