// What follows a change of who holds a course, written by access/ in the ledger change's own transaction (the
// numbers are facts of the ledger; access/ sits below catalog/ and learning/ and so writes their two derived columns
// with plain SQL rather than calling them):
//   courses.students_count          learners holding a course grant that is not revoked (never more than the rows)
//   course_reviews.access_revoked   the author no longer holds the course (and is not staff): the review is listed
//                                   and counted nowhere until the access comes back; the course's rating and
//                                   review_count are recomputed as learning/repository-reviews.ts computes them
import { sql } from 'kysely'
import { STAFF_ROLES } from '../../src-shared/roles.ts'
import { type DB, inTransaction } from '../kernel/db.ts'

export async function courseHoldersChanged(db: DB, changes: readonly { user_id: string; course_id: string | null }[]) {
  const pairs = changes.flatMap((row) => (row.course_id ? [{ userId: row.user_id, courseId: row.course_id }] : []))
  if (pairs.length === 0) return
  // In the caller's transaction, or its own: the course lock below lasts only as long as a transaction. On a plain
  // connection (each statement its own commit) it would end at once, and a recount begun earlier could be written
  // last, over a newer one (ledger-counts.test.ts saw 11 students where 7 held the course).
  await inTransaction(db, (trx) => followHolders(trx, pairs))
}

async function followHolders(trx: DB, pairs: readonly { userId: string; courseId: string }[]) {
  // Lock the course rows (in id order: overlapping sets cannot deadlock) so concurrent changes of one course take
  // turns and each counts the others' committed grants. Not FOR UPDATE: the grant just inserted holds FOR KEY SHARE
  // on its course (the foreign key), and two buyers' KEY SHARE locks would deadlock each other's FOR UPDATE.
  const locked = await trx
    .selectFrom('courses')
    .select('id')
    .where('id', 'in', [...new Set(pairs.map((pair) => pair.courseId))])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute()
  const courseIds = locked.map((row) => row.id)
  for (const courseId of courseIds) {
    await trx
      .updateTable('courses')
      .set({
        students_count: sql<number>`(select count(distinct g.user_id)::int from access_grants g
          where g.course_id = ${courseId} and g.kind = 'course' and g.revoked_at is null)`,
      })
      .where('id', '=', courseId)
      .execute()
  }
  const ratingsToRefresh = new Set<string>()
  for (const { userId, courseId } of pairs) {
    if (!courseIds.includes(courseId)) continue
    const holds = sql<boolean>`(exists (select 1 from access_grants g where g.user_id = r.user_id
        and g.course_id = r.course_id and g.kind = 'course' and g.revoked_at is null)
      or exists (select 1 from users u where u.id = r.user_id and u.role in (${sql.join(STAFF_ROLES)})))`
    const changed = await trx
      .updateTable('course_reviews as r')
      .set({ access_revoked: sql<boolean>`not ${holds}` })
      .where('r.user_id', '=', userId)
      .where('r.course_id', '=', courseId)
      // Only a review whose flag is wrong now: the author holds it but it is suppressed, or the reverse.
      .where(sql<boolean>`r.access_revoked = ${holds}`)
      .returning(['r.id'])
      .execute()
    if (changed.length) ratingsToRefresh.add(courseId)
  }
  for (const courseId of ratingsToRefresh) {
    await trx
      .updateTable('courses')
      .set({
        rating: sql<number>`(select coalesce(round(avg(r.rating)::numeric, 1), 0)::float8 from course_reviews r
          where r.course_id = ${courseId} and r.hidden_at is null and not r.access_revoked)`,
        review_count: sql<number>`(select count(*)::int from course_reviews r
          where r.course_id = ${courseId} and r.hidden_at is null and not r.access_revoked)`,
      })
      .where('id', '=', courseId)
      .execute()
  }
}
