// The course review queue: creators' courses and revisions waiting for staff, oldest first, filtered by kind and
// age. Viewers read; editors and up decide on the submission's own page.

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { FilterSelect } from '#client/components/admin/StatusFilter.tsx'
import { atPage, optionalEnum, optionalPage, searchParams, wholeNumber } from '#client/components/admin/search.ts'
import { pageHead, pageTitle, rowLink } from '#client/components/admin/styles.ts'
import { badge } from '#client/components/ui/badge.ts'
import { Options } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { loadList } from '#client/lib/list-loader.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

const KINDS = ['all', 'first', 'revision'] as const
type Kind = (typeof KINDS)[number]
const KIND_LABELS: Record<Kind, string> = { all: 'All submissions', first: 'New courses', revision: 'Revisions' }
const AGES = [0, 3, 7] as const
const AGE_LABELS: Record<number, string> = { 0: 'Any age', 3: 'Waiting 3+ days', 7: 'Waiting 7+ days' }
type QueueSearch = { kind?: Kind; age?: number; page?: number }

const queueQuery = (trpc: Trpc, { kind = 'all', age = 0, page = 1 }: QueueSearch) =>
  trpc.admin.courseReviews.list.queryOptions({ kind, minAgeDays: age, page })

const routeSearch = searchParams({ kind: optionalEnum(KINDS), age: wholeNumber(0, 365), page: optionalPage })

export const Route = createFileRoute('/admin/_staff/course-reviews')({
  head: () => ({ meta: [{ title: 'Course reviews | SkillForge Admin' }] }),
  validateSearch: routeSearch,
  loaderDeps: ({ search: { kind, age, page } }) => ({ kind, age, page }),
  loader: ({ context, deps, cause }) => loadList(context.queryClient, queueQuery(context.trpc, deps), cause),
  pendingComponent: () => <LoadingState label="Loading the review queue…" />,
  errorComponent: routeError('Could not load the review queue'),
  component: CourseReviews,
})

function CourseReviews() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const queue = useQuery({ ...queueQuery(trpc, search), placeholderData: keepPreviousData })
  const setFilter = (patch: Partial<QueueSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch, page: undefined }) })
  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Course reviews</h1>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <FilterSelect label="Kind" value={search.kind} onChange={(kind) => setFilter({ kind })}>
            <Options items={KINDS} value={(kind) => (kind === 'all' ? '' : kind)} label={(kind) => KIND_LABELS[kind]} />
          </FilterSelect>
          <FilterSelect
            label="Age"
            value={search.age?.toString()}
            onChange={(age) => setFilter({ age: Number(age) || undefined })}
          >
            <Options items={AGES} value={(age) => String(age || '')} label={(age) => AGE_LABELS[age]} />
          </FilterSelect>
        </div>
      </div>
      <PagedList
        query={queue}
        loading="Loading the review queue…"
        failed="Could not load the review queue"
        empty="Nothing waiting for review"
        onPage={(next) => void navigate({ search: atPage(next) })}
      >
        {(data) => (
          <AdminTable columns={['Course', 'Creator', 'Kind', 'Submitted', 'Waiting']}>
            {data.items.map((item) => (
              <tr key={item.id} data-testid="course-review-row">
                <td>
                  <Link to="/admin/course-reviews/$id" params={{ id: item.id }} className={rowLink}>
                    {item.courseTitle}
                  </Link>
                </td>
                <td>{item.ownerName || item.ownerEmail || '—'}</td>
                <td>
                  <span className={badge({ tone: item.kind === 'first' ? 'blue' : 'yellow' })}>
                    {item.kind === 'first' ? 'New course' : 'Revision'}
                  </span>
                </td>
                <td>{formatDate(item.submittedAt, 'medium')}</td>
                <td>{item.ageDays === 0 ? 'Today' : `${item.ageDays} ${item.ageDays === 1 ? 'day' : 'days'}`}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedList>
    </>
  )
}
