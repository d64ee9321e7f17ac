// Numbered pages of a list (the staff and studio tables): one page of rows and how many rows the whole list has.
import { type SelectQueryBuilder, sql } from 'kysely'

/**
 * Page `page` (from 1) of `query`, which selects the rows in their order; the count of all its rows (the same query
 * without its columns and order) and the pages they fill, at least one. Not for a query with `group by` or
 * `distinct`: it counts rows, not groups.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: number,
  pageSize: number,
): Promise<{ rows: O[]; total: number; page: number; pageCount: number }> {
  const [rows, count] = await Promise.all([
    query
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    query
      .clearSelect()
      .clearOrderBy()
      .select(sql<string>`count(*)`.as('n'))
      // Kysely cannot work out a selection's type over a generic table set; this is the one column selected.
      .$castTo<{ n: string }>()
      .executeTakeFirstOrThrow(),
  ])
  const total = Number(count.n)
  return { rows, total, page, pageCount: Math.max(1, Math.ceil(total / pageSize)) }
}
