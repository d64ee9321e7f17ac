// Reviews: every course review, newest first (hidden ones too); editors and up hide a review or show it again.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { atPage, optionalEnum, optionalPage, optionalText, searchParams } from '#client/components/admin/search.ts'
import { inputClass, pageHead, pageTitle } from '#client/components/admin/styles.ts'
import { useStaff } from '#client/components/admin/use-staff.ts'
import { badge } from '#client/components/ui/badge.ts'
import { button } from '#client/components/ui/button.ts'
import { Options, SelectField } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { Stars } from '#client/components/ui/Stars.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { notify, notifyError } from '#client/components/ui/toaster.tsx'
import { loadList } from '#client/lib/list-loader.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { whilePending } from '#client/lib/while-pending.ts'
import { formatDate } from '#shared/dates.ts'
import { REVIEW_MESSAGES, REVIEW_VISIBILITY } from '#shared/reviews.ts'
import { css } from '#styled-system/css'

type Visibility = (typeof REVIEW_VISIBILITY)[number]
type ReviewsSearch = { visibility?: Visibility; course?: string; page?: number }
const VISIBILITY_LABELS: Record<Visibility, string> = { all: 'All reviews', visible: 'Visible', hidden: 'Hidden' }

const reviewsQuery = (trpc: Trpc, { visibility = 'all', course, page = 1 }: ReviewsSearch) =>
  trpc.admin.reviews.list.queryOptions({ visibility, courseId: course, page })

const routeSearch = searchParams({
  visibility: optionalEnum(REVIEW_VISIBILITY),
  course: optionalText,
  page: optionalPage,
})

export const Route = createFileRoute('/admin/_staff/reviews')({
  head: () => ({ meta: [{ title: 'Reviews | SkillForge Admin' }] }),
  validateSearch: routeSearch,
  loaderDeps: ({ search: { visibility, course, page } }) => ({ visibility, course, page }),
  loader: ({ context, deps, cause }) => loadList(context.queryClient, reviewsQuery(context.trpc, deps), cause),
  pendingComponent: () => <LoadingState label="Loading reviews…" />,
  errorComponent: routeError('Could not load reviews'),
  component: Reviews,
})

function Reviews() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const queryClient = useQueryClient()
  const { can } = useStaff()
  const reviews = useQuery({ ...reviewsQuery(trpc, search), placeholderData: keepPreviousData })
  const setHidden = useMutation(
    trpc.admin.reviews.setHidden.mutationOptions({
      onSuccess: async (result) => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.catalog.pathKey() }),
        ])
        notify('success', result.hidden ? REVIEW_MESSAGES.hidden : REVIEW_MESSAGES.shown)
      },
      onError: (error) => notifyError(error),
    }),
  )

  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Reviews</h1>
        <SelectField
          label="Show"
          labelHidden
          controlClassName={inputClass}
          value={search.visibility ?? 'all'}
          onChange={(event) =>
            void navigate({
              search: (prev) => ({
                ...prev,
                page: undefined,
                visibility: event.target.value === 'all' ? undefined : (event.target.value as Visibility),
              }),
            })
          }
        >
          <Options items={REVIEW_VISIBILITY} label={(value) => VISIBILITY_LABELS[value]} />
        </SelectField>
      </div>
      {search.course ? (
        <p className={css({ mb: '3', fontSize: 'sm' })}>
          Reviews of one course.{' '}
          <Link to="/admin/reviews" search={{ visibility: search.visibility }} className={css({ color: 'accent' })}>
            Show every course
          </Link>
        </p>
      ) : null}
      <PagedList
        query={reviews}
        loading="Loading reviews…"
        failed="Could not load reviews"
        empty="No reviews found"
        onPage={(next) => void navigate({ search: atPage(next) })}
      >
        {(data) => (
          <AdminTable columns={['Course', 'Learner', 'Rating', 'Review', 'Date', 'Status', can('editor') && 'Actions']}>
            {data.items.map((review) => (
              <tr key={review.id} data-testid="admin-review">
                <td>
                  <Link
                    to="/admin/reviews"
                    search={{ course: review.courseId, visibility: search.visibility }}
                    className={css({ color: 'accent' })}
                  >
                    {review.courseTitle}
                  </Link>
                </td>
                <td>{review.author}</td>
                <td>
                  <Stars rating={review.rating} showValue={false} />
                </td>
                <td className={css({ maxW: 'md', whiteSpace: 'pre-line' })}>{review.body || '—'}</td>
                <td>{formatDate(review.createdAt, 'medium')}</td>
                <td>
                  <span className={badge({ tone: review.hidden ? 'grey' : 'green' })}>
                    {review.hidden ? 'Hidden' : 'Visible'}
                  </span>
                </td>
                {can('editor') ? (
                  <td>
                    <button
                      type="button"
                      className={button({ variant: 'outline', size: 'sm' })}
                      aria-label={`${review.hidden ? 'Show' : 'Hide'} the review by ${review.author} of ${review.courseTitle}`}
                      {...whilePending(setHidden.isPending, 'onClick', () =>
                        setHidden.mutate({ id: review.id, hidden: !review.hidden }),
                      )}
                    >
                      {review.hidden ? 'Show' : 'Hide'}
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedList>
    </>
  )
}
