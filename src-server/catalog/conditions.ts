// The catalogue's filters as SQL conditions, one fragment per filter, and as the filter groups of
// courses.search_vector (one GIN index serves a search term with every filter).
import { type RawBuilder, sql } from 'kysely'
import { DURATION_BANDS, PRICE_BANDS } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import { likePattern } from '../kernel/like-pattern.ts'
import { quoteLexeme, type TermMatch } from './search-term.ts'

export type Condition = RawBuilder<boolean>
export type Dimension = 'category' | 'price' | 'rating' | 'duration'

export const TRUE: Condition = sql<boolean>`true`
export const FALSE: Condition = sql<boolean>`false`

export function allOf(conditions: Condition[]): Condition {
  return conditions.length === 0 ? TRUE : sql<boolean>`(${sql.join(conditions, sql` and `)})`
}

/** Title or instructor, case-insensitive substring: served by the two trigram GIN indexes. */
export function searchCondition(search: string | undefined): Condition | null {
  if (!search) return null
  const pattern = likePattern(search)
  return sql<boolean>`(courses.title ilike ${pattern} or courses.instructor_name ilike ${pattern})`
}

/** A resolved search term as a condition on courses. */
export function termCondition(match: TermMatch): Condition {
  if (match.kind === 'nothing') return FALSE
  if (match.kind === 'substring') return searchCondition(match.search) ?? TRUE
  return vectorCondition(match, null)
}

/** A filter group as the search vector holds it (migration 2026_11_24_1500's catalog_group_lexeme). */
export interface GroupKey {
  category_id: string
  price_band: number
  rating_floor: number
  duration_band: number
}
export const groupLexeme = (g: GroupKey) =>
  `group ${g.category_id}/${g.price_band}/${g.rating_floor}/${g.duration_band}`

/**
 * The term's words (any of them) and, when given, the filter groups (any of them) as one tsquery on the
 * GIN-indexed search_vector. An empty group list matches nothing.
 */
export function vectorCondition(match: TermMatch | null, groups: GroupKey[] | null): Condition {
  if (groups?.length === 0) return FALSE
  const parts: string[] = []
  if (match?.kind === 'words') parts.push(`(${match.words.map(quoteLexeme).join(' | ')})`)
  if (groups) parts.push(`(${groups.map((g) => quoteLexeme(groupLexeme(g))).join(' | ')})`)
  if (parts.length === 0) return TRUE
  return sql<boolean>`courses.search_vector @@ ${parts.join(' & ')}::tsquery`
}

export function priceCondition(band: keyof typeof PRICE_BANDS): Condition {
  const { min, max } = PRICE_BANDS[band]
  return max === null
    ? sql<boolean>`courses.price_minor >= ${min}`
    : sql<boolean>`courses.price_minor between ${min} and ${max}`
}

export function ratingCondition(floor: number): Condition {
  return sql<boolean>`courses.rating >= ${floor}`
}

export function durationCondition(band: keyof typeof DURATION_BANDS): Condition {
  const { minMinutes, maxMinutes } = DURATION_BANDS[band]
  return maxMinutes === null
    ? sql<boolean>`courses.duration_minutes >= ${minMinutes}`
    : sql<boolean>`courses.duration_minutes between ${minMinutes} and ${maxMinutes}`
}

export function categoryCondition(categoryId: string): Condition {
  return sql<boolean>`courses.category_id = ${categoryId}`
}

/** The active filters by dimension (search is not a dimension: it narrows every count). */
export function filterConditions(query: CatalogueQuery, categoryId: string | null): Map<Dimension, Condition> {
  const conditions = new Map<Dimension, Condition>()
  if (categoryId) conditions.set('category', categoryCondition(categoryId))
  if (query.price) conditions.set('price', priceCondition(query.price))
  if (query.rating) conditions.set('rating', ratingCondition(query.rating))
  if (query.duration) conditions.set('duration', durationCondition(query.duration))
  return conditions
}
