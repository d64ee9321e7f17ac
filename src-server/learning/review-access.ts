// Reviews follow their author's access: when the ledger takes a course away (refund, dispute) the author's review
// of it is listed and counted nowhere; when the access comes back (a won dispute) so does the review. access/ calls
// this in the ledger change's transaction, with the course rows already locked (as every review change locks them),
// and the course's shown rating is recomputed from the rows right away.
import { setCourseRating } from '../catalog/course-rating.ts'
import type { DB } from '../db.ts'
import { computeRatingSummary } from './repository-reviews.ts'

/** Sets whether the learner's review of the course (if any) is suppressed; recomputes the rating if it changed. */
export async function setReviewAccess(trx: DB, userId: string, courseId: string, holdsCourse: boolean) {
  const changed = await trx
    .updateTable('course_reviews')
    .set({ access_revoked: !holdsCourse })
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('access_revoked', '=', holdsCourse)
    .executeTakeFirst()
  if (Number(changed.numUpdatedRows) === 0) return
  await setCourseRating(trx, courseId, await computeRatingSummary(trx, courseId))
}
