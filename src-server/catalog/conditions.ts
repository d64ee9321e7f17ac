// The catalogue's filters as SQL conditions, one fragment per filter, and the same filters as lexemes of
// courses.search_vector (one GIN index serves a search term with every filter).
import { type RawBuilder, sql } from 'kysely'
import { DURATION_BANDS, PRICE_BANDS } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import { quoteLexeme, type TermMatch } from './search-term.ts'

export type Condition = RawBuilder<boolean>
export type Dimension = 'category' | 'price' | 'rating' | 'duration'

export const TRUE: Condition = sql<boolean>`true`
export const FALSE: Condition = sql<boolean>`false`

export function allOf(conditions: Condition[]): Condition {
  return conditions.length === 0 ? TRUE : sql<boolean>`(${sql.join(conditions, sql` and `)})`
}

/** Escapes LIKE wildcards so a search for '50%' means the text '50%'. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
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
  return vectorCondition(match, [])
}

/**
 * The term's words (any of them) and the filter lexemes (all of them) as one tsquery on the GIN-indexed
 * search_vector. The lexemes are written by the migration's catalog_facet_lexemes: 'category <id>', 'price <band
 * number>', 'rating <floor>' (cumulative), 'duration <band number>'.
 */
export function vectorCondition(match: TermMatch | null, lexemes: string[]): Condition {
  const parts = lexemes.map(quoteLexeme)
  if (match?.kind === 'words') parts.unshift(`(${match.words.map(quoteLexeme).join(' | ')})`)
  return sql<boolean>`courses.search_vector @@ ${parts.join(' & ')}::tsquery`
}

const bandNumber = (bands: object, key: string) => Object.keys(bands).indexOf(key)

/** The active filters as search_vector lexemes. */
export function filterLexemes(query: CatalogueQuery, categoryId: string | null): string[] {
  const lexemes: string[] = []
  if (categoryId) lexemes.push(`category ${categoryId}`)
  if (query.price) lexemes.push(`price ${bandNumber(PRICE_BANDS, query.price)}`)
  if (query.rating) lexemes.push(`rating ${query.rating}`)
  if (query.duration) lexemes.push(`duration ${bandNumber(DURATION_BANDS, query.duration)}`)
  return lexemes
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
