// Catalogue search: the requested page of published course cards (the facet counts are in facets.ts).

import { type SelectQueryBuilder, sql } from 'kysely'
import type { SortOption } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import { compiledPerRequest } from '../kernel/compiled-query.ts'
import type { DB } from '../kernel/db.ts'
import { allOf, filterConditions, type GroupKey, termCondition, vectorCondition } from './conditions.ts'
import { courseCardColumns } from './repository.ts'
import type { TermMatch } from './search-term.ts'

export type { CategoryRef } from './facets.ts'

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

/**
 * One page of published course cards in the requested order (ties broken by id, so pages never overlap). The SQL of
 * a request seen before is reused: the catalogue's first pages are asked for over and over (decision 0030).
 */
export const listCoursePage = compiledPerRequest(coursePageQuery)

/** The conditions a matching course meets (published, filters, term). */
function matchingConditions({ query, categoryId, term, fewMatches, matchingGroups }: PageRequest) {
  let conditions = [...filterConditions(query, categoryId).values()]
  // With few matches, the term's words and the filter groups go to the GIN index as one tsquery.
  if (fewMatches && (term?.kind === 'words' || (!term && matchingGroups))) {
    conditions = [vectorCondition(term, matchingGroups)]
  } else if (term) conditions.push(termCondition(term))
  return allOf(conditions)
}

/** Page rows: cards of courses in the requested order (ties broken by id, so pages never overlap). */
function cards(db: DB) {
  return db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select(courseCardColumns)
}

export function coursePageQuery(db: DB, request: PageRequest) {
  const { pageSize, sort } = request.query
  const offset = (request.page - 1) * pageSize
  if (request.fewMatches) {
    // Few matches: found through the indexes, then sorted. Only their ids and sort keys are read and sorted (a
    // materialized CTE, so PostgreSQL does not walk a sort index instead, filtering its way through the whole
    // catalogue to find a rare term's few courses); the page's own rows are then read by id. Materializing every
    // match's whole card (its description above all) cost more than the rest of the query (decision 0029).
    const page = orderBySort(
      db
        .selectFrom('courses')
        .select(['courses.id', 'courses.rating', 'courses.review_count', 'courses.created_at', 'courses.price_minor'])
        .where('courses.status', '=', 'published')
        .where(matchingConditions(request)),
      sort,
    )
      .limit(pageSize)
      .offset(offset)
    return orderBySort(
      db
        .with(
          (cte) => cte('page').materialized(),
          () => page,
        )
        .selectFrom('page')
        .innerJoin('courses', 'courses.id', 'page.id')
        .innerJoin('categories', 'categories.id', 'courses.category_id')
        .select(courseCardColumns),
      sort,
    )
  }
  // Many matches: read in the sort index's order, stopping at the page.
  return orderBySort(cards(db).where('courses.status', '=', 'published').where(matchingConditions(request)), sort)
    .limit(pageSize)
    .offset(offset)
}

/** Each sort's keys, its tie-breaker last (every sort index holds them all: migration 2026_11_24_1510). */
const SORT_KEYS: Record<SortOption, [column: string, direction: 'asc' | 'desc'][]> = {
  rating: [
    ['courses.rating', 'desc'],
    ['courses.review_count', 'desc'],
    ['courses.id', 'asc'],
  ],
  newest: [
    ['courses.created_at', 'desc'],
    ['courses.id', 'desc'],
  ],
  'price-asc': [
    ['courses.price_minor', 'asc'],
    ['courses.id', 'asc'],
  ],
  'price-desc': [
    ['courses.price_minor', 'desc'],
    ['courses.id', 'asc'],
  ],
  popular: [
    ['courses.review_count', 'desc'],
    ['courses.id', 'asc'],
  ],
}

function orderBySort<D, T extends keyof D, O>(builder: SelectQueryBuilder<D, T, O>, sort: SortOption) {
  let ordered = builder
  for (const [column, direction] of SORT_KEYS[sort] ?? SORT_KEYS.popular) {
    ordered = ordered.orderBy(sql.ref(column), direction)
  }
  return ordered
}
