// Facet counts (decision 0022). Courses are counted by group (category, price band, rating floor, duration band):
// every option's count, which ignores its own dimension's filter, is summed from the groups here.
// - Without a search term the groups are catalog_facet_counts, kept by a trigger in the transaction of every course
//   change: exact, and read in a millisecond at any catalogue size.
// - A term that is one word, or inside exactly one word of the catalogue, reads the same counts kept per word
//   (catalog_word_counts): exact at any size.
// - Any other term's groups are counted over the matching courses, but never over more than FACET_COUNT_BOUND of
//   them: past it the page says "1,000+" and the options show no count, and the total with the filters applied
//   is counted up to the bound.
import { sql } from 'kysely'
import { DURATION_BANDS, PRICE_BANDS, RATING_FLOORS } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import { compiledOnce } from '../kernel/compiled-query.ts'
import type { DB } from '../kernel/db.ts'
import { type CatalogueSnapshot, memoised } from './catalogue-snapshot.ts'
import { type Condition, type GroupKey, termCondition, vectorCondition } from './conditions.ts'
import type { TermMatch } from './search-term.ts'

/** Counts stay exact up to this many courses; beyond it they read "1,000+". */
export const FACET_COUNT_BOUND = 1000

export interface CategoryRef {
  id: string
  slug: string
  name: string
}

type PriceBand = keyof typeof PRICE_BANDS
type DurationBand = keyof typeof DURATION_BANDS
/** A filter group and how many courses it holds; price and duration bands by number. */
export interface Group extends GroupKey {
  n: number
}

// Band numbers are positions in the shared constants (the SQL functions of migration 2026_11_24_1500 number them
// the same way; tests/integration/catalog/catalog-scale.test.ts checks they agree).
const priceKeys = Object.keys(PRICE_BANDS) as PriceBand[]
const durationKeys = Object.keys(DURATION_BANDS) as DurationBand[]

const wordCounts = compiledOnce((db: DB, word: string) =>
  db
    .selectFrom('catalog_word_counts')
    .select(['category_id', 'price_band', 'rating_floor', 'duration_band', 'courses as n'])
    .where('word', '=', word)
    .where('courses', '>', 0),
)

// The kept counts are integer columns and the searched ones are cast to int: node-postgres reads them as numbers,
// so the rows are used as they come.
function wordGroups(db: DB, word: string): Promise<Group[]> {
  return wordCounts(db, word)
}

function termGroups(db: DB, snapshot: CatalogueSnapshot, term: TermMatch | null): Promise<Group[] | null> {
  if (!term) return Promise.resolve(snapshot.groups)
  if (term.kind === 'nothing') return Promise.resolve([])
  const [only, ...others] = term.kind === 'words' ? term.words : []
  if (only !== undefined && others.length === 0) return wordGroups(db, only)
  return searchedGroups(db, term)
}

/** The groups of at most FACET_COUNT_BOUND + 1 courses matching the term; null when there are more. */
async function searchedGroups(db: DB, term: TermMatch): Promise<Group[] | null> {
  const { rows: groups } = await sql<Group>`
    select category_id, catalog_price_band(price_minor) as price_band, catalog_rating_floor(rating) as rating_floor,
      catalog_duration_band(duration_minutes) as duration_band, count(*)::int as n
    from (
      select category_id, price_minor, rating, duration_minutes from courses
      where courses.status = 'published' and ${termCondition(term)}
      limit ${FACET_COUNT_BOUND + 1}
    ) as matching
    group by 1, 2, 3, 4`.execute(db)
  return groups.reduce((sum, g) => sum + g.n, 0) > FACET_COUNT_BOUND ? null : groups
}

/** Courses matching the term and every filter, counted up to FACET_COUNT_BOUND + 1. */
async function boundedTotal(db: DB, term: TermMatch, filtered: Group[] | null, filters: Condition) {
  // Words and filter groups go to the GIN index together; a substring term keeps the filters as column conditions.
  const condition =
    term.kind === 'words' ? vectorCondition(term, filtered) : sql<boolean>`${termCondition(term)} and ${filters}`
  const row = await sql<{ n: number }>`
    select count(*)::int as n from (
      select 1 from courses where courses.status = 'published' and ${condition} limit ${FACET_COUNT_BOUND + 1}
    ) as matching`.execute(db)
  return Number(row.rows[0]?.n ?? 0)
}

export interface FacetCounts {
  /** Matching courses; when `capped`, more than FACET_COUNT_BOUND (and `total` is the bound). */
  total: number
  capped: boolean
  facets: ReturnType<typeof summarise>['facets']
  /**
   * The filter groups that hold the matches (every active filter applied), when known, for a GIN query of the
   * page; null when no filter is active (every group would do) or the groups were not counted.
   */
  matchingGroups: GroupKey[] | null
}

export async function countFacets(
  db: DB,
  snapshot: CatalogueSnapshot,
  query: CatalogueQuery,
  categoryId: string | null,
  term: TermMatch | null,
  filters: Condition,
): Promise<FacetCounts> {
  const { categories } = snapshot
  const filtering = Boolean(categoryId || query.price || query.rating || query.duration)
  const keep = groupFilter(query, categoryId)
  const counted = (groups: Group[]): FacetCounts => {
    const summary = summarise(groups, query, categories, categoryId)
    return { ...summary, capped: false, matchingGroups: filtering ? groups.filter(keep) : null }
  }
  // Without a term the counts follow from the snapshot and the filters alone: worked out once per filter set.
  if (!term) {
    const filterSet = `facets ${categoryId} ${query.price} ${query.rating} ${query.duration}`
    return memoised(snapshot, filterSet, () => counted(snapshot.groups))
  }
  const groups = await termGroups(db, snapshot, term)
  if (groups) return counted(groups)
  // More matches than the bound: no per-option counts, and the total with the filters counted up to the bound.
  const filtered = filtering ? snapshot.groups.filter(keep) : null
  const total = await boundedTotal(db, term as TermMatch, filtered, filters)
  const capped = total > FACET_COUNT_BOUND
  return {
    total: capped ? FACET_COUNT_BOUND : total,
    capped,
    facets: summarise(null, query, categories, categoryId).facets,
    matchingGroups: null,
  }
}

/** The active filters as group values: band numbers (-1 when the dimension has no filter). */
function activeFilters(query: CatalogueQuery, categoryId: string | null) {
  return {
    categoryId,
    price: query.price ? priceKeys.indexOf(query.price) : -1,
    rating: query.rating ?? 0,
    duration: query.duration ? durationKeys.indexOf(query.duration) : -1,
  }
}

/** Whether a group satisfies every active filter. */
function groupFilter(query: CatalogueQuery, categoryId: string | null) {
  const f = activeFilters(query, categoryId)
  return (g: Group) =>
    (!f.categoryId || g.category_id === f.categoryId) &&
    (f.price < 0 || g.price_band === f.price) &&
    g.rating_floor >= f.rating &&
    (f.duration < 0 || g.duration_band === f.duration)
}

/**
 * The total and every option's count from the groups (null counts when the groups are unknown), in one pass: a
 * group counts for a dimension's options when it passes every other dimension's active filter (the option's own
 * dimension is ignored), and for the total when it passes them all. It runs on every catalogue request, so it
 * counts into arrays indexed by band and allocates nothing per group.
 */
function summarise(
  groups: Group[] | null,
  query: CatalogueQuery,
  categories: CategoryRef[],
  categoryId: string | null,
) {
  const f = activeFilters(query, categoryId)
  const byCategory = new Map<string, number>()
  const price = priceKeys.map(() => 0)
  const duration = durationKeys.map(() => 0)
  const rating = RATING_FLOORS.map(() => 0)
  let total = 0
  let allCategories = 0
  for (const g of groups ?? []) {
    const okPrice = f.price < 0 || g.price_band === f.price
    const okRating = g.rating_floor >= f.rating
    const okDuration = f.duration < 0 || g.duration_band === f.duration
    if (okPrice && okRating && okDuration) {
      allCategories += g.n
      byCategory.set(g.category_id, (byCategory.get(g.category_id) ?? 0) + g.n)
    }
    if (f.categoryId && g.category_id !== f.categoryId) continue
    if (okRating && okDuration) price[g.price_band] = (price[g.price_band] ?? 0) + g.n
    if (okPrice && okDuration) {
      for (let i = 0; i < RATING_FLOORS.length; i++) {
        if (g.rating_floor >= (RATING_FLOORS[i] as number)) rating[i] = (rating[i] ?? 0) + g.n
      }
    }
    if (okPrice && okRating) duration[g.duration_band] = (duration[g.duration_band] ?? 0) + g.n
    if (okPrice && okRating && okDuration) total += g.n
  }
  const known = <T>(value: T) => (groups ? value : null)
  return {
    total,
    facets: {
      categories: categories.map((c) => ({ slug: c.slug, name: c.name, count: known(byCategory.get(c.id) ?? 0) })),
      allCategories: known(allCategories),
      price: mapKeys(PRICE_BANDS, (band) => known(price[priceKeys.indexOf(band)] ?? 0)),
      rating: RATING_FLOORS.map((floor, i) => ({ floor, count: known(rating[i] ?? 0) })),
      duration: mapKeys(DURATION_BANDS, (band) => known(duration[durationKeys.indexOf(band)] ?? 0)),
    },
  }
}

function mapKeys<K extends string, V>(record: Record<K, unknown>, value: (key: K) => V): Record<K, V> {
  return Object.fromEntries((Object.keys(record) as K[]).map((key) => [key, value(key)])) as Record<K, V>
}
