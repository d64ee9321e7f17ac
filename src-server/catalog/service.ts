// The catalogue page: resolves the category, counts the facets, clamps the page and reads it.
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import type { DB } from '../db.ts'
import { countFacets } from './facets.ts'
import { listCategories, listCoursePage } from './search.ts'

export async function searchCatalogue(db: DB, query: CatalogueQuery) {
  const categories = await listCategories(db)
  // An unknown category is ignored, as the spec preselects a category only "if known".
  const category = categories.find((c) => c.slug === query.category) ?? null
  const { total, facets } = await countFacets(db, query, categories, category?.id ?? null)
  const pageCount = Math.max(1, Math.ceil(total / query.pageSize))
  // A page past the end (an old link, a hand-edited URL) shows the last page rather than nothing.
  const page = Math.min(query.page, pageCount)
  const rows = total === 0 ? [] : await listCoursePage(db, query, category?.id ?? null, page)
  return {
    rows,
    total,
    page,
    pageSize: query.pageSize,
    pageCount,
    category: category ? { slug: category.slug, name: category.name } : null,
    facets,
  }
}
