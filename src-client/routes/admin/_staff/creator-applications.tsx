// Applications to teach: the queue, filtered by status, category and age, newest first (open ones oldest first).
// Every staff member reads; the decision is on each application's page (admins and up).

import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { AdminTable, PagedList } from '#client/components/admin/AdminTable.tsx'
import { FilterSelect } from '#client/components/admin/StatusFilter.tsx'
import {
  atPage,
  optionalEnum,
  optionalPage,
  optionalText,
  searchParams,
  wholeNumber,
} from '#client/components/admin/search.ts'
import { pageHead, pageTitle, rowLink } from '#client/components/admin/styles.ts'
import { badge } from '#client/components/ui/badge.ts'
import { Options } from '#client/components/ui/form.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { loadList } from '#client/lib/list-loader.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { APPLICATION_STATUS_LABELS, APPLICATION_STATUSES } from '#shared/creator-applications.ts'
import { formatDate } from '#shared/dates.ts'
import { css } from '#styled-system/css'

type Status = (typeof APPLICATION_STATUSES)[number]
const AGES = [7, 14, 30] as const
type Search = { status?: Status; category?: string; age?: number; page?: number }
const STATUS_TONES = { submitted: 'blue', approved: 'green', declined: 'red' } as const

const applicationsQuery = (trpc: Trpc, { status, category, age, page = 1 }: Search) =>
  trpc.admin.creatorApplications.list.queryOptions({
    status,
    category,
    olderThanDays: age,
    page,
  })

const routeSearch = searchParams({
  status: optionalEnum(APPLICATION_STATUSES),
  category: optionalText,
  age: wholeNumber(1, 365),
  page: optionalPage,
})

export const Route = createFileRoute('/admin/_staff/creator-applications')({
  head: () => ({ meta: [{ title: 'Creator applications | SkillForge Admin' }] }),
  validateSearch: routeSearch,
  loaderDeps: ({ search: { status, category, age, page } }) => ({ status, category, age, page }),
  loader: ({ context, deps, cause }) =>
    Promise.all([
      loadList(context.queryClient, applicationsQuery(context.trpc, deps), cause),
      context.queryClient.prefetchQuery(context.trpc.catalog.categories.queryOptions()),
    ]),
  pendingComponent: () => <LoadingState label="Loading applications…" />,
  errorComponent: routeError('Could not load applications'),
  component: CreatorApplications,
})

function CreatorApplications() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const applications = useQuery({ ...applicationsQuery(trpc, search), placeholderData: keepPreviousData })
  const categories = useQuery(trpc.catalog.categories.queryOptions())
  const setFilter = (patch: Partial<Search>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch, page: undefined }) })
  return (
    <>
      <div className={pageHead}>
        <h1 className={pageTitle}>Creator applications</h1>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <FilterSelect label="Status" value={search.status} onChange={(status) => setFilter({ status })}>
            <option value="">All statuses</option>
            <Options items={APPLICATION_STATUSES} label={(status) => APPLICATION_STATUS_LABELS[status]} />
          </FilterSelect>
          <FilterSelect label="Category" value={search.category} onChange={(category) => setFilter({ category })}>
            <option value="">All categories</option>
            <Options items={categories.data} value={(category) => category.slug} label={(category) => category.name} />
          </FilterSelect>
          <FilterSelect
            label="Age"
            value={search.age?.toString()}
            onChange={(age) => setFilter({ age: age ? Number(age) : undefined })}
          >
            <option value="">Any age</option>
            <Options items={AGES} label={(days) => `Older than ${days} days`} />
          </FilterSelect>
        </div>
      </div>
      <PagedList
        query={applications}
        loading="Loading applications…"
        failed="Could not load applications"
        empty="No applications found"
        onPage={(next) => void navigate({ search: atPage(next) })}
      >
        {(data) => (
          <AdminTable columns={['Applicant', 'Headline', 'Categories', 'Sent', 'Status']}>
            {data.items.map((application) => (
              <tr key={application.id} data-testid="creator-application">
                <td>
                  <Link to="/admin/creator-applications/$id" params={{ id: application.id }} className={rowLink}>
                    {application.applicant.name || application.applicant.email}
                  </Link>
                  <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>{application.applicant.email}</div>
                </td>
                <td>{application.headline}</td>
                <td>{application.categories.map((c) => c.name).join(', ')}</td>
                <td>{formatDate(application.createdAt, 'medium')}</td>
                <td>
                  <span className={badge({ tone: STATUS_TONES[application.status] })}>
                    {APPLICATION_STATUS_LABELS[application.status]}
                  </span>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedList>
    </>
  )
}
