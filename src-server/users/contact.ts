// Whom a mail or a document is about: a person's address and names, read by their id (receipts, invoices, refunds,
// gifts, chat transcripts, statements, live session invitations, the course review queue).
import type { DB } from '../kernel/db.ts'

export function userContact(db: DB, userId: string) {
  return db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', userId).executeTakeFirst()
}

/** The same for someone a row names by its foreign key, who must exist. */
export async function existingUserContact(db: DB, userId: string) {
  const contact = await userContact(db, userId)
  if (!contact) throw new Error(`No user ${userId}`)
  return contact
}

/** The account staff act on from its customer page, by its id (with its role: staff accounts are refused), or null. */
export function accountForStaffAction(db: DB, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'role']).where('id', '=', userId).executeTakeFirst()
}

/**
 * The addresses and first names of those of these people who take this course's news by e-mail (a live session's
 * announcement to its holders); one who turned their courses' news off on their account page, or this course's
 * (users/course-news.ts), is left out.
 */
export function courseNewsContacts(db: DB, userIds: readonly string[], courseId: string) {
  if (userIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.first_name'])
    .where('u.id', 'in', [...userIds])
    .where('u.course_update_mails', '=', true)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('course_news_mutes as m')
            .select('m.user_id')
            .whereRef('m.user_id', '=', 'u.id')
            .where('m.course_id', '=', courseId),
        ),
      ),
    )
    .execute()
}
