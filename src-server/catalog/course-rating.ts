// The courses' denormalised rating and review_count: catalog owns the columns (cards, the rating filter and sort
// and the facets read them); learning/ computes them from its reviews and sets them in the review's transaction.
import type { DB } from '../kernel/db.ts'

/**
 * Locks the course row for the rest of the caller's transaction, so concurrent review changes of one course
 * take turns: each then reads the others' committed reviews when it recomputes the aggregate. False: no course.
 */
export async function lockCourseForRating(trx: DB, courseId: string): Promise<boolean> {
  const row = await trx.selectFrom('courses').select('id').where('id', '=', courseId).forUpdate().executeTakeFirst()
  return Boolean(row)
}

/** Sets the course's shown aggregate: average of the visible reviews to one decimal (0 with none) and their count. */
export async function setCourseRating(trx: DB, courseId: string, rating: { average: number; count: number }) {
  await trx
    .updateTable('courses')
    .set({ rating: rating.average, review_count: rating.count })
    .where('id', '=', courseId)
    // Unchanged numbers write no row version.
    .where((eb) => eb.or([eb('rating', '!=', rating.average), eb('review_count', '!=', rating.count)]))
    .execute()
}
