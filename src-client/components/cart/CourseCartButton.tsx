// Course card, preview dialog and course page: Add to Cart → 'Adding...' → 'Added to Cart' (disabled);
// 'Go to course' once the server says the user owns it.
import { Link } from '@tanstack/react-router'
import { css, cx } from '../../../styled-system/css'
import { button } from '../ui/button.ts'
import { useAddToCart, useEntitlements } from './hooks.ts'

export function CourseCartButton({
  courseId,
  size = 'md',
  fullWidth = false,
}: {
  courseId: string
  size?: 'sm' | 'md' | 'lg'
  fullWidth?: boolean
}) {
  const { state, add } = useAddToCart({ kind: 'course', courseId })
  const owned = useEntitlements().data?.courseIds.includes(courseId)
  const width = fullWidth ? css({ w: 'full' }) : undefined
  if (owned) {
    return (
      <Link to="/learn/$courseId" params={{ courseId }} className={cx(button({ size, variant: 'outline' }), width)}>
        Go to course
      </Link>
    )
  }
  return (
    <button
      type="button"
      className={cx(button({ size }), width)}
      disabled={state !== 'idle'}
      onClick={(event) => {
        event.preventDefault()
        event.stopPropagation()
        void add()
      }}
    >
      {state === 'adding' ? 'Adding...' : state === 'added' ? 'Added to Cart' : 'Add to Cart'}
    </button>
  )
}
