import { useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute, Link, notFound, useNavigate } from '@tanstack/react-router'
import { Catalogue } from '#client/components/course/Catalogue.tsx'
import { NotFound } from '#client/components/layout/NotFound.tsx'
import { PageIntro } from '#client/components/layout/PageIntro.tsx'
import { routeError } from '#client/components/ui/RouteError.tsx'
import { LoadingState } from '#client/components/ui/states.tsx'
import { catalogueQueryOptions } from '#client/lib/catalogue-query.ts'
import { type CatalogueSearch, catalogueSearchSchema } from '#client/lib/catalogue-search.ts'
import { loadList } from '#client/lib/list-loader.ts'
import { omitParams, type SearchOf } from '#client/lib/search-params.ts'
import { seo } from '#client/lib/seo.ts'
import { css } from '#styled-system/css'

const categorySearch = omitParams(catalogueSearchSchema, ['category', 'search'])
type CategorySearch = SearchOf<typeof categorySearch>

export const Route = createFileRoute('/courses/category/$slug')({
  validateSearch: categorySearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient, trpc }, params, deps, cause }) => {
    const categories = await queryClient.ensureQueryData(trpc.catalog.categories.queryOptions())
    const category = categories.find((c) => c.slug === params.slug)
    if (!category) throw notFound()
    await loadList(queryClient, catalogueQueryOptions(trpc, { ...deps, category: category.slug }), cause)
    return { name: category.name, description: category.description }
  },
  head: ({ loaderData }) =>
    seo({
      title: loaderData ? `${loaderData.name} Courses` : 'Category',
      description: loaderData?.description ?? 'Browse courses by category.',
    }),
  pendingComponent: () => <LoadingState label="Loading courses…" />,
  errorComponent: routeError('Failed to load courses'),
  notFoundComponent: NotFound,
  component: CategoryPage,
})

function CategoryPage() {
  const { slug } = Route.useParams()
  const search = Route.useSearch()
  const { trpc } = Route.useRouteContext()
  const navigate = useNavigate({ from: Route.fullPath })
  const { data: categories } = useSuspenseQuery(trpc.catalog.categories.queryOptions())
  const category = categories.find((c) => c.slug === slug)
  if (!category) return <NotFound />
  const update = (patch: Partial<CatalogueSearch>) =>
    navigate({ search: (previous: CategorySearch) => ({ ...previous, ...patch }) as CategorySearch })
  return (
    <main>
      <PageIntro title={`${category.name} Courses`}>
        <p>{category.description}</p>
        <p className={css({ mt: '3' })}>
          <Link to="/courses" className={css({ color: 'accent', fontWeight: 'semibold' })}>
            Browse all courses
          </Link>
        </p>
      </PageIntro>
      <Catalogue
        trpc={trpc}
        search={{ ...search, category: slug }}
        showCategory={false}
        onChange={update}
        onClear={() => navigate({ search: {} })}
      />
    </main>
  )
}
