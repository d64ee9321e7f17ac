// Frozen: learning gaps of 2026-11-25. Never import application code here.
// - lessons.video_duration_seconds: the length read from an uploaded video file (null for articles, links and
//   lessons whose file was never probed); the lesson's shown duration follows it.
// - course_reviews.access_revoked: the author no longer holds the course (refund, dispute) — the review is then
//   listed and counted nowhere until the access is restored.
// - courses.students_count becomes the number of learners holding a course grant that is not revoked (the app keeps
//   it in the ledger's transaction from now on); the numbers written before without rows behind them are corrected.
import { type Kysely, sql } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('lessons').addColumn('video_duration_seconds', 'integer').execute()
  await db.schema
    .alterTable('course_reviews')
    .addColumn('access_revoked', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  await sql`update course_reviews r set access_revoked = true
    where not exists (select 1 from access_grants g where g.user_id = r.user_id and g.course_id = r.course_id
                        and g.kind = 'course' and g.revoked_at is null)
      and not exists (select 1 from users u where u.id = r.user_id and u.role <> 'customer')`.execute(db)
  await sql`update courses c set
      rating = coalesce((select round(avg(r.rating)::numeric, 1)::float8 from course_reviews r
                         where r.course_id = c.id and r.hidden_at is null and not r.access_revoked), 0),
      review_count = (select count(*)::int from course_reviews r
                      where r.course_id = c.id and r.hidden_at is null and not r.access_revoked)
    where c.id in (select course_id from course_reviews where access_revoked)`.execute(db)
  await sql`update courses c set students_count = coalesce(held.n, 0)
    from courses c2 left join (select course_id, count(distinct user_id)::int as n from access_grants
                               where kind = 'course' and revoked_at is null group by course_id) held
      on held.course_id = c2.id
    where c2.id = c.id and c.students_count <> coalesce(held.n, 0)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('course_reviews').dropColumn('access_revoked').execute()
  await db.schema.alterTable('lessons').dropColumn('video_duration_seconds').execute()
}
