// The course page's purchase box action: for a learner who holds the course (bought, Premium, staff) "Go to course"
// or "Continue learning" with their progress; for everyone else the cart button.
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useSession } from '#client/lib/session.ts'
import { useTRPC } from '#client/lib/use-trpc.ts'
import type { CourseChannel } from '#shared/cart.ts'
import { css, cx } from '#styled-system/css'
import { CourseCartButton } from '../cart/CourseCartButton.tsx'
import { button } from '../ui/button.ts'
import { ProgressBar } from './ProgressBar.tsx'
import { progressLabel } from './progress-label.ts'

/** `priceMinor` 0 makes the cart button Enrol for free. */
export function CourseLearnAction({
  courseId,
  priceMinor,
  currency,
  from,
}: {
  courseId: string
  priceMinor?: number
  /** The currency the buyer chose to pay in (the course page's "Pay in"). */
  currency?: 'USD' | 'GBP'
  /** How the buyer reached the course page (its `?from=`), for analytics' channels. */
  from?: CourseChannel
}) {
  const trpc = useTRPC()
  const { user } = useSession()
  const learning = useQuery({ ...trpc.learning.course.queryOptions({ courseId }), enabled: Boolean(user) })
  const data = learning.data
  if (!user || !data?.hasAccess) {
    return (
      <CourseCartButton
        courseId={courseId}
        priceMinor={priceMinor}
        currency={currency}
        from={from}
        size="lg"
        fullWidth
      />
    )
  }
  const label = progressLabel(data.progress, data.completion?.completedAt)
  const started = data.progress.completed > 0 && label !== 'Completed'
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <Link to="/learn/$courseId" params={{ courseId }} className={cx(button({ size: 'lg' }), css({ w: 'full' }))}>
        {started ? 'Continue learning' : 'Go to course'}
      </Link>
      <p className={css({ fontSize: 'sm', fontWeight: 'semibold' })} data-testid="learning-status">
        {label}
      </p>
      <ProgressBar percent={data.progress.percent} label="Your progress" />
    </div>
  )
}
