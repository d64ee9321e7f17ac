// The signed-in learner's own review of the course: write it, or see, edit and delete it. The server says who may
// review (a learner with access who completed a lesson); this only shows its answer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { button } from '#client/components/ui/button.ts'
import { ErrorState, Spinner } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { useTRPC } from '#client/lib/use-trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { REVIEW_MESSAGES } from '#shared/reviews.ts'
import { css } from '#styled-system/css'
import { ReviewForm } from './ReviewForm.tsx'
import { ReviewItem } from './ReviewItem.tsx'

const panel = css({ borderWidth: '1px', borderColor: 'line', borderRadius: 'card', p: '5', display: 'grid', gap: '3' })

function useReviewMutations(onDone: () => void) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const refresh = async (message: string) => {
    notify('success', message)
    onDone()
    // The list, the summary and every place the course's rating shows (page header, cards, filters).
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() }),
    ])
  }
  const onError = (error: unknown) => notifyError(error)
  return {
    create: useMutation(
      trpc.reviews.create.mutationOptions({ onSuccess: () => refresh(REVIEW_MESSAGES.created), onError }),
    ),
    update: useMutation(
      trpc.reviews.update.mutationOptions({ onSuccess: () => refresh(REVIEW_MESSAGES.updated), onError }),
    ),
    remove: useMutation(
      trpc.reviews.delete.mutationOptions({ onSuccess: () => refresh(REVIEW_MESSAGES.deleted), onError }),
    ),
  }
}

export function YourReview({ courseId }: { courseId: string }) {
  const trpc = useTRPC()
  const mine = useQuery(trpc.reviews.mine.queryOptions({ courseId }))
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view')
  const { create, update, remove } = useReviewMutations(() => setMode('view'))

  if (mine.isPending) return <Spinner label="Loading your review" />
  if (mine.isError)
    return <ErrorState title="Could not load your review" error={mine.error} onRetry={() => mine.refetch()} />
  const { blocker, review } = mine.data

  if (review) {
    return (
      <section aria-labelledby="your-review" className={panel}>
        <h3 id="your-review" className={css({ fontWeight: 'bold' })}>
          Your review
        </h3>
        {review.hidden ? (
          <p role="note" className={css({ fontSize: 'sm', color: 'warning' })}>
            Our team has hidden this review: other learners do not see it.
          </p>
        ) : null}
        {mode === 'edit' ? (
          <ReviewForm
            initial={review}
            submitLabel="Save review"
            pending={update.isPending}
            onSubmit={(draft) => update.mutate({ id: review.id, ...draft })}
            onCancel={() => setMode('view')}
          />
        ) : (
          <>
            <ReviewItem review={review} />
            {mode === 'confirm-delete' ? (
              <div role="alert" className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
                <span className={css({ fontSize: 'sm' })}>Delete your review? This cannot be undone.</span>
                <button
                  type="button"
                  className={button({ variant: 'danger', size: 'sm' })}
                  {...whilePending(remove.isPending, 'onClick', () => remove.mutate({ id: review.id }))}
                >
                  {remove.isPending ? 'Deleting...' : 'Delete review'}
                </button>
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  onClick={() => setMode('view')}
                >
                  Keep it
                </button>
              </div>
            ) : (
              <div className={css({ display: 'flex', gap: '2' })}>
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  onClick={() => setMode('edit')}
                >
                  Edit review
                </button>
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  onClick={() => setMode('confirm-delete')}
                >
                  Delete
                </button>
              </div>
            )}
          </>
        )}
      </section>
    )
  }

  if (blocker === 'signed_out') {
    return (
      <p className={css({ fontSize: 'sm' })}>
        <Link
          to="/login"
          search={{ redirect: `/courses/${courseId}` }}
          className={css({ color: 'accent', fontWeight: 'semibold' })}
        >
          {REVIEW_MESSAGES.signed_out}
        </Link>
      </p>
    )
  }
  if (blocker) return <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{REVIEW_MESSAGES[blocker]}.</p>
  return (
    <section aria-labelledby="write-review" className={panel}>
      <h3 id="write-review" className={css({ fontWeight: 'bold' })}>
        Write a review
      </h3>
      <ReviewForm
        submitLabel="Publish review"
        pending={create.isPending}
        onSubmit={(draft) => create.mutate({ courseId, ...draft })}
      />
    </section>
  )
}
