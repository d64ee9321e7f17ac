// Frozen: the sitemap's course files (decision 0029). Never import application code here.
// A sitemap file is a 50,000-course slice of the published courses by id (offset, limit). Through the primary key
// PostgreSQL visits every skipped course's row to check its status (~0.9 s for the second slice at 100k); this
// partial index holds the published ids with their last change, so a slice is an index-only scan.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index courses_published_id_idx on courses (id) include (updated_at) where status = 'published'`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists courses_published_id_idx`.execute(db)
}
