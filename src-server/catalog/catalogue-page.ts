// The catalogue page: resolves the category, counts the facets, clamps the page and reads it.
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import type { DB } from '../db.ts'
import { countFacets } from './facets.ts'
import { listCategories, listCoursePage } from './search.ts'

export async function searchCatalogue(db: DB, query: CatalogueQuery) {
  const categories = await listCategories(db)
  // An unknown category is ignored, as the spec preselects a category only "if known".
  const category = categories.find((c) => c.slug === query.category) ?? null
  const categoryId = category?.id ?? null
  // The counts and the requested page are independent queries: on PostgreSQL they run side by side on two
  // pooled connections, so a search costs the slower of the two rather than their sum.
  const [{ total, facets }, requestedRows] = await Promise.all([
    countFacets(db, query, categories, categoryId),
    listCoursePage(db, query, categoryId, query.page),
  ])
  const pageCount = Math.max(1, Math.ceil(total / query.pageSize))
  // A page past the end (an old link, a hand-edited URL) shows the last page rather than nothing.
  const page = Math.min(query.page, pageCount)
  const rows = page === query.page ? requestedRows : await listCoursePage(db, query, categoryId, page)
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
