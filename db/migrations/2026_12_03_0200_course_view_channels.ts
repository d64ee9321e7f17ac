// Frozen: course-page views by channel (issue 35, decision 0056). The course page's `?from=search|catalogue` rides on
// its view beacon; the counters keep the day's views from a search result and from browsing the catalogue beside
// the total (direct = views - search - catalogue), as the sales rollup keeps units by channel.
// Never import application code here.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('course_event_counts')
    .addColumn('views_search', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views_catalogue', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('course_event_counts').dropColumn('views_catalogue').dropColumn('views_search').execute()
}
