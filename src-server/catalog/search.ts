// Catalogue search: one query for the facet counts (FILTER clauses) and one for the requested page.
import { sql } from 'kysely'
import { DURATION_BANDS, PRICE_BANDS, RATING_FLOORS, type SortOption } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import type { DB } from '../db.ts'
import {
  allOf,
  type Condition,
  categoryCondition,
  durationCondition,
  filterConditions,
  otherThan,
  priceCondition,
  ratingCondition,
  searchCondition,
  TRUE,
} from './conditions.ts'
import { courseCardColumns } from './repository.ts'

export interface CategoryRef {
  id: string
  slug: string
  name: string
}

export function listCategories(db: DB): Promise<CategoryRef[]> {
  return db.selectFrom('categories').select(['id', 'slug', 'name']).orderBy('position').execute()
}

interface Counted {
  alias: string
  condition: Condition
}

/** Facet counts plus the total, in one pass over the published courses that match the search. */
export async function countFacets(db: DB, query: CatalogueQuery, categories: CategoryRef[], categoryId: string | null) {
  const active = filterConditions(query, categoryId)
  const counted: Counted[] = [{ alias: 'total', condition: allOf([...active.values()]) }]
  const facet = (alias: string, dimension: 'category' | 'price' | 'rating' | 'duration', option: Condition) => {
    counted.push({ alias, condition: allOf([...otherThan(active, dimension), option]) })
  }
  for (const [index, category] of categories.entries()) facet(`c${index}`, 'category', categoryCondition(category.id))
  facet('c_all', 'category', TRUE)
  for (const band of Object.keys(PRICE_BANDS) as (keyof typeof PRICE_BANDS)[]) {
    facet(`p_${band}`, 'price', priceCondition(band))
  }
  for (const floor of RATING_FLOORS) facet(`r${floor}`, 'rating', ratingCondition(floor))
  for (const band of Object.keys(DURATION_BANDS) as (keyof typeof DURATION_BANDS)[]) {
    facet(`d_${band}`, 'duration', durationCondition(band))
  }

  const selections = counted.map(
    ({ alias, condition }) => sql`count(*) filter (where ${condition})::int as ${sql.ref(alias)}`,
  )
  const search = searchCondition(query.search) ?? TRUE
  const result = await sql<Record<string, number>>`
    select ${sql.join(selections)} from courses
    where courses.status = 'published' and ${search}`.execute(db)
  const row = result.rows[0] ?? {}
  const n = (alias: string) => Number(row[alias] ?? 0)
  return {
    total: n('total'),
    facets: {
      categories: categories.map((category, index) => ({
        slug: category.slug,
        name: category.name,
        count: n(`c${index}`),
      })),
      allCategories: n('c_all'),
      price: mapKeys(PRICE_BANDS, (band) => n(`p_${band}`)),
      rating: RATING_FLOORS.map((floor) => ({ floor, count: n(`r${floor}`) })),
      duration: mapKeys(DURATION_BANDS, (band) => n(`d_${band}`)),
    },
  }
}

function mapKeys<K extends string, V>(record: Record<K, unknown>, value: (key: K) => V): Record<K, V> {
  return Object.fromEntries((Object.keys(record) as K[]).map((key) => [key, value(key)])) as Record<K, V>
}

/** One page of published course cards in the requested order (ties broken by id, so pages never overlap). */
export function listCoursePage(db: DB, query: CatalogueQuery, categoryId: string | null, page: number) {
  const conditions = [...filterConditions(query, categoryId).values()]
  const search = searchCondition(query.search)
  if (search) conditions.push(search)
  let builder = db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select(courseCardColumns)
    .where('courses.status', '=', 'published')
    .where(allOf(conditions))
  builder = orderBySort(builder, query.sort)
  return builder
    .limit(query.pageSize)
    .offset((page - 1) * query.pageSize)
    .execute()
}

type CourseQuery = ReturnType<typeof baseForOrder>
function baseForOrder(db: DB) {
  return db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select(courseCardColumns)
}

function orderBySort(builder: CourseQuery, sort: SortOption): CourseQuery {
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
