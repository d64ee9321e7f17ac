// One course's news by e-mail (a dripped section opening, a live session scheduled), stopped or taken again by the
// person, course by course, under their account page's E-mail preferences; "Course news by e-mail" (users.
// course_update_mails) stops all of it at once. The mails' readers (users/contact.ts, flows/drip-unlocks.ts) leave a
// muted course's news out.
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'
import { isForeignKeyViolation } from '../kernel/pg-errors.ts'

/** The courses whose news this person does not want by e-mail. */
export async function mutedCourseIds(db: DB, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('course_news_mutes')
    .select('course_id')
    .where('user_id', '=', userId)
    .orderBy('course_id')
    .execute()
  return rows.map((row) => row.course_id)
}

/** Stops (`wanted` false) or takes again one course's news; doing it twice changes nothing. */
export async function setCourseNewsWanted(db: DB, userId: string, courseId: string, wanted: boolean): Promise<void> {
  if (wanted) {
    await db.deleteFrom('course_news_mutes').where('user_id', '=', userId).where('course_id', '=', courseId).execute()
    return
  }
  try {
    await db
      .insertInto('course_news_mutes')
      .values({ user_id: userId, course_id: courseId })
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .execute()
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new DomainError('not_found', 'Course not found')
    throw error
  }
}
