// Seeds a fresh database (in-memory PGlite, or the empty PostgreSQL database given with --database-url), twice,
// and prints how long each seed took and what the ratings rest on: reviews, demo learners, students, and any
// course whose shown rating, review count or student count is not what its rows give (there should be none).
//   npx tsx scripts/report-seed-ratings.ts [--database-url postgres://…/empty_db]
import { sql } from 'kysely'
import { migrateToLatest } from '../db/migrate.ts'
import { seedDatabase } from '../db/seed/index.ts'
import { openDatabase } from '../src-server/kernel/db.ts'

const urlFlag = process.argv.indexOf('--database-url')
const handle = await openDatabase(urlFlag > 0 ? { databaseUrl: process.argv[urlFlag + 1] } : {})
try {
  await migrateToLatest(handle.db)
  for (const run of ['first', 'second (idempotent)']) {
    const started = performance.now()
    await seedDatabase(handle.db)
    console.log(`${handle.kind}: ${run} seed ${Math.round(performance.now() - started)} ms`)
  }
  const totals = await handle.db
    .selectNoFrom([
      sql<string>`(select count(*) from course_reviews)`.as('reviews'),
      sql<string>`(select count(*) from users where email like '%@demo.skillforge.example')`.as('learners'),
      sql<string>`(select count(*) from access_grants where kind = 'course')`.as('course_grants'),
      sql<string>`(select min(review_count) from courses where status = 'published')`.as('fewest'),
      sql<string>`(select max(review_count) from courses where status = 'published')`.as('most'),
    ])
    .executeTakeFirstOrThrow()
  console.log(totals)
  const dishonest = await sql<{ id: string }>`
    select c.id from courses c
    where c.review_count <> (select count(*) from course_reviews r where r.course_id = c.id and r.hidden_at is null)
       or c.rating <> coalesce((select round(avg(r.rating)::numeric, 1) from course_reviews r
                                where r.course_id = c.id and r.hidden_at is null), 0)
       or c.students_count > (select count(distinct g.user_id) from access_grants g
                            where g.course_id = c.id and g.kind = 'course' and g.revoked_at is null)`.execute(handle.db)
  console.log(`courses whose numbers exceed or differ from their rows: ${dishonest.rows.length}`)
} finally {
  await handle.close()
}
