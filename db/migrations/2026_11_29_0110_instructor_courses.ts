// Frozen: an instructor's published courses (issue 30). Never import application code here.
// The profile page lists an instructor's published courses newest first, and the sitemap lists the profiles that
// have one; without this partial index both read every course.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index courses_instructor_published_idx on courses (instructor_id, published_at desc, id) where status = 'published'`.execute(
    db,
  )
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists courses_instructor_published_idx`.execute(db)
}
