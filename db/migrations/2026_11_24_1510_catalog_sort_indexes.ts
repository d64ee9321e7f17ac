// Frozen: the catalogue's sort indexes as of 2026-11-24 (decision 0022). Never import application code here.
// Each index holds a sort's whole order, tie-breakers included, so a page is read in order: with only the first
// key indexed, PostgreSQL must read and sort every tied row first (18 price points put ~50,000 courses of a
// million on each price; a rating of 5.0 is shared by thousands). A category page gets its own two orders.
import { type Kysely, sql } from 'kysely'

const INDEXES: [name: string, columns: string][] = [
  ['courses_popular_order_idx', 'status, review_count desc, id'],
  ['courses_rating_order_idx', 'status, rating desc, review_count desc, id'],
  ['courses_price_asc_order_idx', 'status, price_minor, id'],
  ['courses_price_desc_order_idx', 'status, price_minor desc, id'],
  ['courses_category_popular_order_idx', 'category_id, status, review_count desc, id'],
  ['courses_category_newest_order_idx', 'category_id, status, created_at desc, id desc'],
]
/** Superseded by the ones above (courses_category_idx is a prefix of both category indexes). */
const REPLACED: [name: string, columns: string][] = [
  ['courses_status_popular_idx', 'status, review_count'],
  ['courses_status_rating_idx', 'status, rating'],
  ['courses_status_price_idx', 'status, price_minor'],
  ['courses_category_idx', 'category_id, status'],
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) await sql.raw(`create index ${name} on courses (${columns})`).execute(db)
  for (const [name] of REPLACED) await sql.raw(`drop index if exists ${name}`).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of REPLACED) {
    await sql.raw(`create index if not exists ${name} on courses (${columns})`).execute(db)
  }
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db)
}
