// Whom a mail or a document is about: a person's address and names, read by their id (receipts, invoices, refunds,
// gifts, chat transcripts, statements, live session invitations, the course review queue).
import type { DB } from '../kernel/db.ts'
import { DomainError } from '../kernel/errors.ts'

export function userContact(db: DB, userId: string) {
  return db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', userId).executeTakeFirst()
}

/** The same for someone a row names by its foreign key, who must exist. */
export async function existingUserContact(db: DB, userId: string) {
  const contact = await userContact(db, userId)
  if (!contact) throw new Error(`No user ${userId}`)
  return contact
}

/**
 * The account staff act on from its customer page, by its id: 404 when there is none, and with `staffRefusal` a 403
 * saying it for a staff account (an action that could take over or lock out a colleague is not support's to take).
 */
export async function accountForStaffAction(db: DB, userId: string, staffRefusal?: string) {
  const account = await db
    .selectFrom('users')
    .select(['id', 'email', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!account) throw new DomainError('not_found', 'No such customer.')
  if (staffRefusal && account.role !== 'customer') throw new DomainError('forbidden', staffRefusal)
  return account
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
