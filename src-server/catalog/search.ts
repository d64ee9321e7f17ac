// Catalogue search: the requested page of published course cards (the facet counts are in facets.ts).
import type { SortOption } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import { compiledOnce } from '../compiled-query.ts'
import type { DB } from '../db.ts'
import { allOf, filterConditions, type GroupKey, termCondition, vectorCondition } from './conditions.ts'
import type { CategoryRef } from './facets.ts'
import { courseCardColumns } from './repository.ts'
import type { TermMatch } from './search-term.ts'

export type { CategoryRef } from './facets.ts'

export const listCategories: (db: DB) => Promise<CategoryRef[]> = compiledOnce((db: DB) =>
  db.selectFrom('categories').select(['id', 'slug', 'name']).orderBy('position'),
)

export interface PageRequest {
  query: CatalogueQuery
  categoryId: string | null
  term: TermMatch | null
  page: number
  /**
   * How many courses match (at most a bound). Few matches are read whole through the indexes and sorted; many are
   * read in the sort index's order, stopping at the page (a few rows per page when matches are dense).
   */
  fewMatches: boolean
  /** The filter groups holding the matches, when known and a filter is active (see facets.ts). */
  matchingGroups: GroupKey[] | null
}

/** One page of published course cards in the requested order (ties broken by id, so pages never overlap). */
export function listCoursePage(db: DB, request: PageRequest) {
  return coursePageQuery(db, request).execute()
}

/** The card columns and sort keys of the matching courses. */
function matchingCourses(db: DB, { query, categoryId, term, fewMatches, matchingGroups }: PageRequest) {
  let conditions = [...filterConditions(query, categoryId).values()]
  // With few matches, the term's words and the filter groups go to the GIN index as one tsquery.
  if (fewMatches && (term?.kind === 'words' || (!term && matchingGroups))) {
    conditions = [vectorCondition(term, matchingGroups)]
  } else if (term) conditions.push(termCondition(term))
  return db
    .selectFrom('courses')
    .select([
      'id',
      'title',
      'instructor_name',
      'image_url',
      'price_minor',
      'original_price_minor',
      'currency',
      'rating',
      'review_count',
      'featured',
      'lessons_count',
      'duration_minutes',
      'level',
      'description',
      'category_id',
      'created_at',
    ])
    .where('courses.status', '=', 'published')
    .where(allOf(conditions))
}

function pageBuilder(db: DB, request: PageRequest) {
  const matching = matchingCourses(db, request)
  // A CTE named like the table. Materialized (few matches), the page reads it instead of walking a sort index,
  // which would filter its way through the whole catalogue to find a rare term's few courses; otherwise
  // PostgreSQL inlines it and reads the sort index.
  const source = request.fewMatches
    ? db.with(
        (cte) => cte('courses').materialized(),
        () => matching,
      )
    : db.with('courses', () => matching)
  return source
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select(courseCardColumns)
}
type PageBuilder = ReturnType<typeof pageBuilder>

export function coursePageQuery(db: DB, request: PageRequest) {
  const { pageSize, sort } = request.query
  return orderBySort(pageBuilder(db, request), sort)
    .limit(pageSize)
    .offset((request.page - 1) * pageSize)
}

function orderBySort(builder: PageBuilder, sort: SortOption): PageBuilder {
  switch (sort) {
    case 'rating':
      return builder.orderBy('courses.rating', 'desc').orderBy('courses.review_count', 'desc').orderBy('courses.id')
    case 'newest':
      return builder.orderBy('courses.created_at', 'desc').orderBy('courses.id', 'desc')
    case 'price-asc':
      return builder.orderBy('courses.price_minor', 'asc').orderBy('courses.id')
    case 'price-desc':
      return builder.orderBy('courses.price_minor', 'desc').orderBy('courses.id')
    default:
      return builder.orderBy('courses.review_count', 'desc').orderBy('courses.id')
  }
}
