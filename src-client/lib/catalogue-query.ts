// The catalogue's query options, kept apart from the components so route loaders stay in the small main chunk.
import type { CatalogueSearch } from './catalogue-search.ts'
import type { Trpc } from './trpc.ts'

export function catalogueQueryOptions(trpc: Trpc, search: CatalogueSearch) {
  return trpc.catalog.search.queryOptions({ ...search, sort: search.sort ?? 'popular', page: search.page ?? 1 })
}
