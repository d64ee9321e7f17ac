// The catalogue body shared by /courses and /courses/category/{slug}: filters, results, pagination.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { catalogueQueryOptions } from '#client/lib/catalogue-query.ts'
import type { CatalogueSearch } from '#client/lib/catalogue-search.ts'
import type { Trpc } from '#client/lib/trpc.ts'
import { groupDigits } from '#shared/numbers.ts'
import { css } from '#styled-system/css'
import { CourseCartButton } from '../cart/CourseCartButton.tsx'
import { button } from '../ui/button.ts'
import { Container } from '../ui/layout.tsx'
import { Pagination } from '../ui/Pagination.tsx'
import { EmptyState, ErrorState, LoadingState } from '../ui/states.tsx'
import { FilterBar, type FilterChange, FilterSidebar } from './CatalogueFilters.tsx'
import { CourseCard } from './CourseCard.tsx'

/** The results heading ("12 Courses"), where focus goes after a search. */
export const CATALOGUE_RESULTS_ID = 'catalogue-results'

export function Catalogue({
  trpc,
  search,
  onChange,
  onClear,
  showCategory = true,
}: {
  trpc: Trpc
  search: CatalogueSearch
  /** Applies a filter change; every change but a page change starts again at page 1. */
  onChange: FilterChange
  onClear: () => void
  showCategory?: boolean
}) {
  const query = useQuery({ ...catalogueQueryOptions(trpc, search), placeholderData: keepPreviousData })
  if (query.isPending) return <LoadingState label="Loading courses…" />
  if (query.isError)
    return <ErrorState title="Failed to load courses" error={query.error} onRetry={() => query.refetch()} />
  const result = query.data
  const changeFilter: FilterChange = (patch) => onChange({ ...patch, page: undefined })
  // A search term makes the results a search; otherwise the buyer is browsing (analytics' channels).
  const from = search.search ? 'search' : 'catalogue'
  return (
    <Container className={css({ py: '10' })}>
      <div
        className={css({
          display: 'flex',
          justifyContent: 'space-between',
          gap: '4',
          flexWrap: 'wrap',
          alignItems: 'end',
          mb: '8',
        })}
      >
        <h2
          id={CATALOGUE_RESULTS_ID}
          tabIndex={-1}
          aria-live="polite"
          className={css({ fontSize: '2xl', fontWeight: 'bold' })}
          data-testid="catalogue-count"
        >
          {result.totalCapped
            ? `${groupDigits(result.total)}+ Courses`
            : `${result.total} ${result.total === 1 ? 'Course' : 'Courses'}`}
        </h2>
        <FilterBar search={search} facets={result.facets} onChange={changeFilter} showCategory={showCategory} />
      </div>
      <div className={css({ display: 'grid', gap: '8', gridTemplateColumns: { base: '1fr', md: '220px 1fr' } })}>
        <div className={css({ display: 'grid', gap: '4', alignContent: 'start' })}>
          <FilterSidebar search={search} facets={result.facets} onChange={changeFilter} />
          {result.totalCapped ? (
            <p className={css({ fontSize: 'xs', color: 'fg.muted' })} data-testid="counts-capped">
              More than {groupDigits(result.total)} courses match: counts are shown for narrower searches.
            </p>
          ) : null}
        </div>
        <div aria-busy={query.isFetching} className={css({ opacity: query.isPlaceholderData ? 0.6 : 1 })}>
          {result.items.length === 0 ? (
            <EmptyState title="No courses found">
              <p className={css({ mt: '1' })}>Try adjusting your filters or search term</p>
              <button type="button" className={`${button()} ${css({ mt: '4' })}`} onClick={onClear}>
                Clear All Filters
              </button>
            </EmptyState>
          ) : (
            <div
              className={css({
                display: 'grid',
                gap: '6',
                gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
              })}
            >
              {result.items.map((course, index) => (
                <CourseCard
                  key={course.id}
                  course={course}
                  priority={index === 0}
                  from={from}
                  cartAction={
                    <CourseCartButton courseId={course.id} priceMinor={course.priceMinor} size="sm" from={from} />
                  }
                />
              ))}
            </div>
          )}
          <Pagination
            page={result.page}
            pageCount={result.pageCount}
            onPage={(page) => {
              onChange({ page: page === 1 ? undefined : page })
              window.scrollTo({ top: 0 })
            }}
          />
        </div>
      </div>
    </Container>
  )
}
