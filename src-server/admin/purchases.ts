// Whether anyone bought a course: such a course is archived rather than deleted, so order history stays whole.
// The purchase tables come from the cart and checkout work. Until they are merged this looks the known ones up
// by name in the catalogue of the database, so it is right both before and after; the lead may replace the
// lookup with a direct query on the merged table (e.g. order_items.course_id).
import { sql } from 'kysely'
import type { DB } from '../db.ts'

/** Tables that record a purchase of a course through a `course_id` column. */
export const PURCHASE_TABLES = ['order_items', 'enrolments', 'enrollments', 'purchases', 'course_entitlements'] as const

export async function courseHasPurchases(db: DB, courseId: string): Promise<boolean> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = 'course_id'
      and table_name in (${sql.join(PURCHASE_TABLES.map((name) => sql.lit(name)))})`.execute(db)
  for (const { table_name } of tables.rows) {
    const hit = await sql<{
      one: number
    }>`select 1 as one from ${sql.table(table_name)} where course_id = ${courseId} limit 1`.execute(db)
    if (hit.rows.length > 0) return true
  }
  return false
}
