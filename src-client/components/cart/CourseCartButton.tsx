// Course card, preview dialog and course page: Add to Cart → 'Adding...' → 'Added to Cart' (disabled);
// a free course shows Enrol for free instead (no cart, no checkout); 'Go to course' once the server says the user
// owns it.
import { useMutation } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { MouseEvent } from 'react'
import { errorCode } from '#client/lib/errors.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import type { CourseChannel } from '#shared/cart.ts'
import { css, cx } from '#styled-system/css'
import { button } from '../ui/button.ts'
import { notify, notifyError, notifyLoginNeeded } from '../ui/toaster.tsx'
import { useAddToCart, useEntitlements, useRefreshPurchases } from './hooks.ts'

type Size = 'sm' | 'md' | 'lg'

export function CourseCartButton({
  courseId,
  priceMinor,
  currency,
  size = 'md',
  fullWidth = false,
  from,
}: {
  courseId: string
  /** 0 makes it Enrol for free. */
  priceMinor?: number
  /** The currency the buyer chose (a course priced in both); left out: the course's own. */
  currency?: 'USD' | 'GBP'
  size?: Size
  fullWidth?: boolean
  /** How the buyer reached the course (a catalogue search or browsing): kept on the cart line for analytics. */
  from?: CourseChannel
}) {
  const owned = useEntitlements().data?.courseIds.includes(courseId)
  const width = fullWidth ? css({ w: 'full' }) : undefined
  if (owned) {
    return (
      <Link to="/learn/$courseId" params={{ courseId }} className={cx(button({ size, variant: 'outline' }), width)}>
        Go to course
      </Link>
    )
  }
  if (priceMinor === 0) return <EnrolFreeButton courseId={courseId} size={size} className={width} />
  return <AddCourseButton courseId={courseId} currency={currency} from={from} size={size} className={width} />
}

function EnrolFreeButton({ courseId, size, className }: { courseId: string; size: Size; className?: string }) {
  const trpc = useTRPC()
  const refresh = useRefreshPurchases()
  const enrol = useMutation(trpc.purchases.enrolFree.mutationOptions())
  return (
    <button
      type="button"
      className={cx(button({ size }), className)}
      {...whilePending(enrol.isPending, 'onClick', async (event: MouseEvent) => {
        event.preventDefault()
        event.stopPropagation()
        try {
          const enrolled = await enrol.mutateAsync({ courseId })
          notify('success', `You are enrolled in ${enrolled.title}`)
          await refresh()
        } catch (error) {
          if (errorCode(error) === 'UNAUTHORIZED') notifyLoginNeeded('Please log in to enrol')
          else notifyError(error)
        }
      })}
    >
      {enrol.isPending ? 'Enrolling...' : 'Enrol for free'}
    </button>
  )
}

function AddCourseButton({
  courseId,
  currency,
  from,
  size,
  className,
}: {
  courseId: string
  currency?: 'USD' | 'GBP'
  from?: CourseChannel
  size: Size
  className?: string
}) {
  const { state, add } = useAddToCart({
    kind: 'course',
    courseId,
    ...(currency ? { currency } : {}),
    ...(from ? { from } : {}),
  })
  const width = className
  return (
    <button
      type="button"
      className={cx(button({ size }), width)}
      // aria-disabled, not disabled: the button keeps focus while it changes to Added (WCAG 2.4.3)
      aria-disabled={state !== 'idle'}
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
