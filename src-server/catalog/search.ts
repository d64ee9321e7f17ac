// Catalogue search: the requested page of published course cards (the facet counts are in facets.ts).
import type { SortOption } from '../../src-shared/constants.ts'
import type { CatalogueQuery } from '../../src-shared/schemas/catalog.ts'
import type { DB } from '../db.ts'
import { allOf, filterConditions, searchCondition } from './conditions.ts'
import type { CategoryRef } from './facets.ts'
import { courseCardColumns } from './repository.ts'

export type { CategoryRef } from './facets.ts'

export function listCategories(db: DB): Promise<CategoryRef[]> {
  return db.selectFrom('categories').select(['id', 'slug', 'name']).orderBy('position').execute()
}

/** One page of published course cards in the requested order (ties broken by id, so pages never overlap). */
export function listCoursePage(db: DB, query: CatalogueQuery, categoryId: string | null, page: number) {
  return coursePageQuery(db, query, categoryId, page).execute()
}

export function coursePageQuery(db: DB, query: CatalogueQuery, categoryId: string | null, page: number) {
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
  return builder.limit(query.pageSize).offset((page - 1) * query.pageSize)
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
