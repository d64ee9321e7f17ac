// The course page's reviews: the rating summary, the learner's own review (write, edit, delete) and the visible
// reviews, newest first, a page at a time. Loaded after the page itself (below the fold), with their own states.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { contentHeading, TitledSection } from '#client/components/ui/layout.tsx'
import { Pagination } from '#client/components/ui/Pagination.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { css } from '#styled-system/css'
import { RatingSummary } from './RatingSummary.tsx'
import { ReviewItem } from './ReviewItem.tsx'
import { YourReview } from './YourReview.tsx'

export function CourseReviews({ courseId, className }: { courseId: string; className?: string }) {
  const trpc = useTRPC()
  const [page, setPage] = useState(1)
  const summary = useQuery(trpc.reviews.summary.queryOptions({ courseId }))
  const list = useQuery({ ...trpc.reviews.list.queryOptions({ courseId, page }), placeholderData: keepPreviousData })

  return (
    <TitledSection id="reviews" title="Student reviews" className={className} titleClassName={contentHeading}>
      <div className={css({ display: 'grid', gap: '6' })}>
        {summary.isPending ? (
          <LoadingState label="Loading ratings…" />
        ) : summary.isError ? (
          <ErrorState title="Could not load the ratings" error={summary.error} onRetry={() => summary.refetch()} />
        ) : (
          <RatingSummary summary={summary.data} />
        )}
        <YourReview courseId={courseId} />
        {list.isPending ? (
          <LoadingState label="Loading reviews…" />
        ) : list.isError ? (
          <ErrorState title="Could not load the reviews" error={list.error} onRetry={() => list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <EmptyState title="No reviews yet">
            <p>Learners who have completed a lesson can review this course.</p>
          </EmptyState>
        ) : (
          <div aria-busy={list.isPlaceholderData || undefined}>
            <ul aria-label="Reviews" className={css({ display: 'grid', gap: '5' })}>
              {list.data.items.map((review) => (
                <li key={review.id} className={css({ borderTopWidth: '1px', borderColor: 'line', pt: '4' })}>
                  <ReviewItem review={review} />
                </li>
              ))}
            </ul>
            <Pagination page={page} pageCount={list.data.pageCount} onPage={setPage} />
          </div>
        )}
      </div>
    </TitledSection>
  )
}
