// Facet counts in one pass: the matching courses are grouped by (category, price band, rating floor, duration
// band) — at most a few hundred groups — and every option's count (which ignores its own dimension's filter)
// is summed from those groups here. Without a search term the groups are the same for every filter
// combination, so they are cached until the courses change.
import { sql } from 'kysely'
import { DURATION_BANDS, PRICE_BANDS, RATING_FLOORS } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import type { DB } from '../db.ts'
import { searchCondition, TRUE } from './conditions.ts'

export interface CategoryRef {
  id: string
  slug: string
  name: string
}

type PriceBand = keyof typeof PRICE_BANDS
type DurationBand = keyof typeof DURATION_BANDS
interface Group {
  category_id: string
  price: PriceBand
  rating_floor: number
  duration: DurationBand
  n: number
}
type GroupRow = Omit<Group, 'price' | 'duration'> & { price: number; duration: number }

interface Band {
  min: number
  max: number | null
}

/**
 * `width_bucket(column, thresholds)` numbers the band a value falls in (0 = first band), and `keys` turns that
 * number back into the band's key. Cheaper per row than a `case`; needs the bands contiguous from 0, which the
 * shared constants are (checked here so a future edit cannot silently miscount).
 */
function bucketing<K extends string>(column: string, bands: Record<K, Band>) {
  const entries = Object.entries(bands) as [K, Band][]
  entries.forEach(([key, band], index) => {
    const previous = entries[index - 1]?.[1]
    const contiguous = previous ? previous.max !== null && band.min === previous.max + 1 : band.min === 0
    if (!contiguous) throw new Error(`Facet bands must be contiguous from 0: ${key}`)
  })
  const thresholds = entries.slice(1).map(([, band]) => band.min)
  return {
    sql: sql<number>`width_bucket(${sql.ref(column)}, array[${sql.join(thresholds.map((t) => sql.lit(t)))}]::int[])`,
    keys: entries.map(([key]) => key),
  }
}
const priceBuckets = bucketing('courses.price_minor', PRICE_BANDS)
const durationBuckets = bucketing(
  'courses.duration_minutes',
  Object.fromEntries(
    Object.entries(DURATION_BANDS).map(([key, b]) => [key, { min: b.minMinutes, max: b.maxMinutes }]),
  ) as Record<DurationBand, Band>,
)

/** The grouping query (exported for the benchmark's EXPLAIN). */
export function facetGroupsQuery(search: string | undefined) {
  return sql<GroupRow>`
    select courses.category_id,
      ${priceBuckets.sql} as price,
      least(floor(courses.rating), 4)::int as rating_floor,
      ${durationBuckets.sql} as duration,
      count(*)::int as n
    from courses
    where courses.status = 'published' and ${searchCondition(search) ?? TRUE}
    group by 1, 2, 3, 4`
}

/** Unsearched groups per database, kept until a statement changes courses (catalog_version moves). */
const unsearchedCache = new WeakMap<DB, { version: string; rows: Group[] }>()

async function facetGroups(db: DB, search: string | undefined): Promise<Group[]> {
  if (search) return decode((await facetGroupsQuery(search).execute(db)).rows)
  // Read the version first: a change landing mid-way leaves an older stamp, so the next request recomputes.
  const { version } = await db.selectFrom('catalog_version').select('version').executeTakeFirstOrThrow()
  const cached = unsearchedCache.get(db)
  if (cached?.version === String(version)) return cached.rows
  const rows = decode((await facetGroupsQuery(undefined).execute(db)).rows)
  unsearchedCache.set(db, { version: String(version), rows })
  return rows
}

function decode(rows: GroupRow[]): Group[] {
  return rows.map((row) => ({
    ...row,
    price: priceBuckets.keys[row.price] as PriceBand,
    duration: durationBuckets.keys[row.duration] as DurationBand,
  }))
}

export async function countFacets(db: DB, query: CatalogueQuery, categories: CategoryRef[], categoryId: string | null) {
  const rows = await facetGroups(db, query.search)
  const matches = {
    category: (g: Group) => !categoryId || g.category_id === categoryId,
    price: (g: Group) => !query.price || g.price === query.price,
    rating: (g: Group) => !query.rating || g.rating_floor >= query.rating,
    duration: (g: Group) => !query.duration || g.duration === query.duration,
  }
  type Dimension = keyof typeof matches
  const dimensions = Object.keys(matches) as Dimension[]
  /** Courses matching every active filter except `skip`'s, and `option`. */
  const count = (skip: Dimension | null, option: (g: Group) => boolean) =>
    rows
      .filter((g) => option(g) && dimensions.every((d) => d === skip || matches[d](g)))
      .reduce((sum, g) => sum + Number(g.n), 0)

  return {
    total: count(null, () => true),
    facets: {
      categories: categories.map((c) => ({
        slug: c.slug,
        name: c.name,
        count: count('category', (g) => g.category_id === c.id),
      })),
      allCategories: count('category', () => true),
      price: mapKeys(PRICE_BANDS, (band) => count('price', (g) => g.price === band)),
      rating: RATING_FLOORS.map((floor) => ({ floor, count: count('rating', (g) => g.rating_floor >= floor) })),
      duration: mapKeys(DURATION_BANDS, (band) => count('duration', (g) => g.duration === band)),
    },
  }
}

function mapKeys<K extends string, V>(record: Record<K, unknown>, value: (key: K) => V): Record<K, V> {
  return Object.fromEntries((Object.keys(record) as K[]).map((key) => [key, value(key)])) as Record<K, V>
}
