// Dashboard numbers, all counted in the database.
import { sql } from 'kysely'
import { STAFF_ROLES } from '../../src-shared/roles.ts'
import type { DB } from '../db.ts'

export async function dashboardCounts(db: DB) {
  const row = await db
    .selectNoFrom([
      sql<string>`(select count(*) from courses where status != 'archived')`.as('courses'),
      sql<string>`(select count(*) from courses where status = 'published')`.as('published'),
      sql<string>`(select count(*) from categories)`.as('categories'),
      sql<string>`(select count(*) from users where role in (${sql.join([...STAFF_ROLES])}))`.as('team'),
    ])
    .executeTakeFirstOrThrow()
  return {
    courses: Number(row.courses),
    publishedCourses: Number(row.published),
    categories: Number(row.categories),
    teamMembers: Number(row.team),
  }
}
