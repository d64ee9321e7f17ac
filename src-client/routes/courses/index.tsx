import { createFileRoute, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { BundleShelf } from '#client/components/bundles/BundleCard.tsx'
import { CATALOGUE_RESULTS_ID, Catalogue } from '#client/components/course/Catalogue.tsx'
import { button } from '#client/components/ui/button.ts'
import { Icon } from '#client/components/ui/icons.tsx'
import { Container } from '#client/components/ui/layout.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { catalogueQueryOptions } from '#client/lib/catalogue-query.ts'
import { type CatalogueSearch, catalogueSearchSchema } from '#client/lib/catalogue-search.ts'
import { focusElement } from '#client/lib/focus.ts'
import { loadList } from '#client/lib/list-loader.ts'
import { seo } from '#client/lib/seo.ts'
import { css } from '#styled-system/css'

export const Route = createFileRoute('/courses/')({
  validateSearch: catalogueSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps, cause }) => {
    await Promise.all([
      loadList(context.queryClient, catalogueQueryOptions(context.trpc, deps), cause),
      // The bundle shelf renders with the page (no shift when it arrives); a failure only leaves it out.
      cause === 'stay' ? null : context.queryClient.prefetchQuery(context.trpc.bundles.published.queryOptions()),
    ])
  },
  head: () =>
    seo({
      title: 'All Courses',
      description:
        'Search and filter online courses in development, business, marketing and design by price, rating and length.',
    }),
  pendingComponent: () => <LoadingState label="Loading courses…" />,
  errorComponent: routeError('Failed to load courses'),
  component: CataloguePage,
})

function CataloguePage() {
  const search = Route.useSearch()
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate({ from: Route.fullPath })
  const update = (patch: Partial<CatalogueSearch>) =>
    navigate({ search: (previous) => clean({ ...previous, ...patch }) })
  return (
    <main>
      <section className={css({ bg: 'brand.50', borderBottomWidth: '1px', borderColor: 'brand.100' })}>
        <Container className={css({ py: { base: '10', md: '14' } })}>
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold' })}>
            Explore Our Courses
          </h1>
          <p className={css({ mt: '2', color: 'fg.muted' })}>Learn from working experts at your own pace.</p>
          {/* Keyed by the URL's term so the back button also restores the box. */}
          <SearchForm
            key={search.search ?? ''}
            initial={search.search ?? ''}
            onSearch={async (term) => {
              await update({ search: term || undefined, page: undefined })
              // The results replace the page below the box: take the keyboard there ("12 Courses").
              focusElement(document.getElementById(CATALOGUE_RESULTS_ID))
            }}
          />
        </Container>
      </section>
      <BundleShelf />
      <Catalogue trpc={trpc} search={search} onChange={update} onClear={() => navigate({ search: {} })} />
    </main>
  )
}

/** A GET form: sent before the page's JavaScript arrives, the browser opens /courses?search=… itself. */
function SearchForm({ initial, onSearch }: { initial: string; onSearch: (term: string) => Promise<void> }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void onSearch(String(new FormData(event.currentTarget).get('search') ?? '').trim())
  }
  return (
    <form
      method="get"
      aria-label="Course search"
      onSubmit={submit}
      className={css({ mt: '6', display: 'flex', gap: '2', maxW: '2xl' })}
    >
      <label htmlFor="course-search" className={css({ srOnly: true })}>
        Search courses
      </label>
      <div className={css({ position: 'relative', flex: 1 })}>
        <span
          className={css({
            position: 'absolute',
            left: '3',
            top: '50%',
            transform: 'translateY(-50%)',
            color: 'fg.muted',
          })}
        >
          <Icon name="search" size={18} />
        </span>
        <input
          id="course-search"
          type="search"
          name="search"
          defaultValue={initial}
          maxLength={100}
          placeholder="Search by course title or instructor"
          className={css({
            w: 'full',
            h: '12',
            pl: '10',
            pr: '3',
            borderWidth: '1px',
            borderColor: 'line',
            borderRadius: 'control',
            bg: 'surface',
          })}
        />
      </div>
      <button type="submit" className={button({ size: 'lg' })}>
        Search
      </button>
    </form>
  )
}

/** Drops empty values so URLs stay short and shareable. */
function clean(search: CatalogueSearch): CatalogueSearch {
  return Object.fromEntries(
    Object.entries(search).filter(([, value]) => value !== undefined && value !== ''),
  ) as CatalogueSearch
}
