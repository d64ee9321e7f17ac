// Frozen: the catalogue's change counter also moves with what a course page shows beyond its course and category
// rows (decision 0072): the instructor card (instructors), the outline (course_sections, lessons) and whether anyone
// answers messages (course_instructors). The course page's serialised answer is kept until catalog_version moves, so
// every statement that changes these tables, whoever runs it (the studio, staff's editor, the seed, psql), moves it.
// Curriculum edits already moved it through the courses row (lessons_count, updated_at); instructor profiles and
// course teams did not. Never import application code here.
import { type Kysely, sql } from 'kysely'

const TABLES = ['instructors', 'course_sections', 'lessons', 'course_instructors'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_catalog_version`)} after insert or update or delete or truncate
      on ${sql.table(table)} for each statement execute function bump_catalog_version()`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`drop trigger if exists ${sql.raw(`${table}_catalog_version`)} on ${sql.table(table)}`.execute(db)
  }
}
