// The catalogue page: resolves the category and the search term, counts the facets, clamps the page and reads it.
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import type { DB } from '../kernel/db.ts'
import { catalogueSnapshot } from './catalogue-snapshot.ts'
import { allOf, filterConditions } from './conditions.ts'
import { countFacets } from './facets.ts'
import { listCoursePage } from './search.ts'
import { resolveTerm } from './search-term.ts'

/**
 * Up to this many matches, the page is read from the matches themselves (through the indexes) and sorted; beyond,
 * in the sort index's order, which finds a page's few rows quickly when matches are that common.
 */
const SORT_MATCHES_UP_TO = 2000

export async function searchCatalogue(db: DB, query: CatalogueQuery) {
  const [snapshot, term] = await Promise.all([catalogueSnapshot(db), resolveTerm(db, query.search)])
  const { categories } = snapshot
  // An unknown category is ignored, as the spec preselects a category only "if known".
  const category = categories.find((c) => c.slug === query.category) ?? null
  const categoryId = category?.id ?? null
  const filters = allOf([...filterConditions(query, categoryId).values()])
  const { total, capped, facets, matchingGroups } = await countFacets(db, snapshot, query, categoryId, term, filters)
  const pageCount = Math.max(1, Math.ceil(total / query.pageSize))
  // A page past the end (an old link, a hand-edited URL) shows the last page rather than nothing. Past the count
  // bound the last page is the bound's.
  const page = Math.min(query.page, pageCount)
  const fewMatches = !capped && total <= SORT_MATCHES_UP_TO
  const rows = await listCoursePage(db, { query, categoryId, term, page, fewMatches, matchingGroups })
  return {
    rows,
    total,
    /** True when more courses match than `total` says (it is then the count bound: the page says "1,000+"). */
    totalCapped: capped,
    page,
    pageSize: query.pageSize,
    pageCount,
    category: category ? { slug: category.slug, name: category.name } : null,
    facets,
  }
}
