// My courses: each with its state, the plan's counts, search and pages; "Create your first course" when empty.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { StandingSummary } from '#client/components/studio/StandingSummary.tsx'
import { StudioCourseList } from '#client/components/studio/StudioCourseList.tsx'
import { button } from '#client/components/ui/button.ts'
import { Options, SelectField, TextField } from '#client/components/ui/form.tsx'
import { Pagination } from '#client/components/ui/Pagination.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { EmptyState, ErrorState, LoadingState } from '#client/components/ui/states.tsx'
import { loadList } from '#client/lib/list-loader.ts'
import { optionalEnum, optionalPage, optionalText, type SearchOf, searchParams } from '#client/lib/search-params.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { useSearchText } from '#client/lib/use-search-text.ts'
import { STUDIO_PAGE_SIZE, STUDIO_STATE_LABELS, STUDIO_STATES } from '#shared/studio.ts'
import { css } from '#styled-system/css'

const searchSchema = searchParams({ search: optionalText, state: optionalEnum(STUDIO_STATES), page: optionalPage })
type StudioSearch = SearchOf<typeof searchSchema>

const coursesQuery = (trpc: Trpc, search: StudioSearch) =>
  trpc.studio.myCourses.queryOptions({ search: search.search ?? '', state: search.state, page: search.page ?? 1 })

export const Route = createFileRoute('/studio/')({
  validateSearch: searchSchema,
  loaderDeps: ({ search: { search, state, page } }) => ({ search, state, page }),
  loader: ({ context: { queryClient, trpc }, deps, cause }) => loadList(queryClient, coursesQuery(trpc, deps), cause),
  head: () => ({ meta: [{ title: 'My courses | Studio | SkillForge' }] }),
  pendingComponent: () => <LoadingState label="Loading your courses…" />,
  errorComponent: routeError('Could not load your courses'),
  component: MyCourses,
})

const head = css({ display: 'flex', flexWrap: 'wrap', gap: '4', alignItems: 'center', justifyContent: 'space-between' })

function MyCourses() {
  const { trpc } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const standing = useQuery(trpc.studio.standing.queryOptions())
  const list = useQuery({ ...coursesQuery(trpc, search), placeholderData: keepPreviousData })
  // Typing searches on the server after a short pause, from page 1.
  const [searchText, setSearchText] = useSearchText(
    search.search,
    (text) => void navigate({ search: (prev) => ({ ...prev, search: text, page: undefined }) }),
  )

  const filtered = Boolean(search.search || search.state)
  const page = search.page ?? 1
  return (
    <main className={css({ display: 'flex', flexDir: 'column', gap: '6' })}>
      <div className={head}>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>My courses</h1>
        <Link to="/studio/courses/new" className={button()}>
          New course
        </Link>
      </div>
      {standing.data ? <StandingSummary standing={standing.data} /> : null}
      <search className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'flex-end' })}>
        <TextField
          label="Search your courses"
          type="search"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          className={css({ display: 'flex', flexDir: 'column', gap: '1', flex: '1 1 14rem' })}
        />
        <SelectField
          label="State"
          value={search.state ?? ''}
          onChange={(event) => {
            const state = STUDIO_STATES.find((value) => value === event.target.value)
            void navigate({ search: (prev) => ({ ...prev, state, page: undefined }) })
          }}
          className={css({ display: 'flex', flexDir: 'column', gap: '1', flex: '0 1 12rem' })}
        >
          <option value="">All states</option>
          <Options items={STUDIO_STATES} label={(state) => STUDIO_STATE_LABELS[state]} />
        </SelectField>
      </search>
      {list.isPending ? (
        <LoadingState label="Loading your courses…" />
      ) : list.isError ? (
        <ErrorState title="Could not load your courses" error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.items.length === 0 && list.data.total > 0 ? (
        // A page past the end (an old link, or its last course deleted): the courses are still there.
        <EmptyState title="No courses on this page">
          <p className={css({ mb: '4' })}>
            {list.data.total === 1 ? 'You have 1 course' : `You have ${list.data.total} courses`}
            {filtered ? ' matching this search.' : '.'}
          </p>
          <Link to="/studio" search={{ ...search, page: undefined }} className={button()}>
            Back to the first page
          </Link>
        </EmptyState>
      ) : list.data.items.length === 0 ? (
        filtered ? (
          <EmptyState title="No courses match">
            <p>Try another search or state.</p>
          </EmptyState>
        ) : (
          <EmptyState title="Create your first course">
            <p className={css({ mb: '4' })}>Give it a title and a category; you can change everything later.</p>
            <Link to="/studio/courses/new" className={button()}>
              Create your first course
            </Link>
          </EmptyState>
        )
      ) : (
        <>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite">
            {list.data.total === 1 ? '1 course' : `${list.data.total} courses`}
          </p>
          <StudioCourseList courses={list.data.items} />
          <Pagination
            page={page}
            pageCount={Math.max(1, Math.ceil(list.data.total / STUDIO_PAGE_SIZE))}
            onPage={(next) => void navigate({ search: (prev) => ({ ...prev, page: next === 1 ? undefined : next }) })}
          />
        </>
      )}
    </main>
  )
}
